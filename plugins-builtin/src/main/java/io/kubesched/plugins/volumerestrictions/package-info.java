/**
 * The VolumeRestrictions plugin: in-tree disks that cannot be shared on a node and ReadWriteOncePod
 * claims already in use.
 */
package io.kubesched.plugins.volumerestrictions;
