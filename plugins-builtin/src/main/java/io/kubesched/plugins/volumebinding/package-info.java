/**
 * The VolumeBinding plugin (kube's volume binder): claims bound to volumes whose node affinity
 * fits, WaitForFirstConsumer claims matched to static volumes or dynamically provisioned, the
 * bindings assumed at Reserve and written at PreBind.
 */
package io.kubesched.plugins.volumebinding;
