/**
 * The NodeVolumeLimits plugin: the CSI volumes a node can attach, per driver (CSINode {@code
 * allocatable.count}), counting migrated in-tree volumes as their CSI drivers.
 */
package io.kubesched.plugins.nodevolumelimits;
