package io.kubesched.core.cluster;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodStatus;

/**
 * Shallow copies of the model classes every new revision of a pod copies (the pod, its metadata,
 * spec and status: each bind, each status patch, each assumed pod), written out field by field:
 * {@link ObjectCopier#shallowCopy}'s reflective loop costs several times more until the JIT's top
 * tier has compiled it, and a scheduler's first seconds are spent before that. {@code
 * ModelRevisionsTest} checks, by reflection, that every field of each class is copied, so that a
 * client-java upgrade that adds one fails the build rather than dropping the field.
 */
final class ModelRevisions {
  private ModelRevisions() {}

  /** A shallow copy of {@code o}: every field of V1Pod refers to the same value. */
  static V1Pod pod(V1Pod o) {
    V1Pod c = ObjectCopier.bare(V1Pod.class);
    c.setApiVersion(o.getApiVersion());
    c.setKind(o.getKind());
    c.setMetadata(o.getMetadata());
    c.setSpec(o.getSpec());
    c.setStatus(o.getStatus());
    return c;
  }

  /** A shallow copy of {@code o}: every field of V1ObjectMeta refers to the same value. */
  static V1ObjectMeta metadata(V1ObjectMeta o) {
    V1ObjectMeta c = ObjectCopier.bare(V1ObjectMeta.class);
    c.setAnnotations(o.getAnnotations());
    c.setCreationTimestamp(o.getCreationTimestamp());
    c.setDeletionGracePeriodSeconds(o.getDeletionGracePeriodSeconds());
    c.setDeletionTimestamp(o.getDeletionTimestamp());
    c.setFinalizers(o.getFinalizers());
    c.setGenerateName(o.getGenerateName());
    c.setGeneration(o.getGeneration());
    c.setLabels(o.getLabels());
    c.setManagedFields(o.getManagedFields());
    c.setName(o.getName());
    c.setNamespace(o.getNamespace());
    c.setOwnerReferences(o.getOwnerReferences());
    c.setResourceVersion(o.getResourceVersion());
    c.setSelfLink(o.getSelfLink());
    c.setUid(o.getUid());
    return c;
  }

  /** A shallow copy of {@code o}: every field of V1PodSpec refers to the same value. */
  static V1PodSpec spec(V1PodSpec o) {
    V1PodSpec c = ObjectCopier.bare(V1PodSpec.class);
    c.setActiveDeadlineSeconds(o.getActiveDeadlineSeconds());
    c.setAffinity(o.getAffinity());
    c.setAutomountServiceAccountToken(o.getAutomountServiceAccountToken());
    c.setContainers(o.getContainers());
    c.setDnsConfig(o.getDnsConfig());
    c.setDnsPolicy(o.getDnsPolicy());
    c.setEnableServiceLinks(o.getEnableServiceLinks());
    c.setEphemeralContainers(o.getEphemeralContainers());
    c.setHostAliases(o.getHostAliases());
    c.setHostIPC(o.getHostIPC());
    c.setHostNetwork(o.getHostNetwork());
    c.setHostPID(o.getHostPID());
    c.setHostUsers(o.getHostUsers());
    c.setHostname(o.getHostname());
    c.setHostnameOverride(o.getHostnameOverride());
    c.setImagePullSecrets(o.getImagePullSecrets());
    c.setInitContainers(o.getInitContainers());
    c.setNodeName(o.getNodeName());
    c.setNodeSelector(o.getNodeSelector());
    c.setOs(o.getOs());
    c.setOverhead(o.getOverhead());
    c.setPreemptionPolicy(o.getPreemptionPolicy());
    c.setPriority(o.getPriority());
    c.setPriorityClassName(o.getPriorityClassName());
    c.setReadinessGates(o.getReadinessGates());
    c.setResourceClaims(o.getResourceClaims());
    c.setResources(o.getResources());
    c.setRestartPolicy(o.getRestartPolicy());
    c.setRuntimeClassName(o.getRuntimeClassName());
    c.setSchedulerName(o.getSchedulerName());
    c.setSchedulingGates(o.getSchedulingGates());
    c.setSchedulingGroup(o.getSchedulingGroup());
    c.setSecurityContext(o.getSecurityContext());
    c.setServiceAccount(o.getServiceAccount());
    c.setServiceAccountName(o.getServiceAccountName());
    c.setSetHostnameAsFQDN(o.getSetHostnameAsFQDN());
    c.setShareProcessNamespace(o.getShareProcessNamespace());
    c.setSubdomain(o.getSubdomain());
    c.setTerminationGracePeriodSeconds(o.getTerminationGracePeriodSeconds());
    c.setTolerations(o.getTolerations());
    c.setTopologySpreadConstraints(o.getTopologySpreadConstraints());
    c.setVolumes(o.getVolumes());
    return c;
  }

  /** A shallow copy of {@code o}: every field of V1PodStatus refers to the same value. */
  static V1PodStatus status(V1PodStatus o) {
    V1PodStatus c = ObjectCopier.bare(V1PodStatus.class);
    c.setAllocatedResources(o.getAllocatedResources());
    c.setConditions(o.getConditions());
    c.setContainerStatuses(o.getContainerStatuses());
    c.setEphemeralContainerStatuses(o.getEphemeralContainerStatuses());
    c.setExtendedResourceClaimStatus(o.getExtendedResourceClaimStatus());
    c.setHostIP(o.getHostIP());
    c.setHostIPs(o.getHostIPs());
    c.setInitContainerStatuses(o.getInitContainerStatuses());
    c.setMessage(o.getMessage());
    c.setNodeAllocatableResourceClaimStatuses(o.getNodeAllocatableResourceClaimStatuses());
    c.setNominatedNodeName(o.getNominatedNodeName());
    c.setObservedGeneration(o.getObservedGeneration());
    c.setPhase(o.getPhase());
    c.setPodIP(o.getPodIP());
    c.setPodIPs(o.getPodIPs());
    c.setQosClass(o.getQosClass());
    c.setReason(o.getReason());
    c.setResize(o.getResize());
    c.setResourceClaimStatuses(o.getResourceClaimStatuses());
    c.setResources(o.getResources());
    c.setStartTime(o.getStartTime());
    return c;
  }
}
