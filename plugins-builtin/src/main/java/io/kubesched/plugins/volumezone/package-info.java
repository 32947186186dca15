/** The VolumeZone plugin: a pod's bound volumes must be in the node's zone and region. */
package io.kubesched.plugins.volumezone;
