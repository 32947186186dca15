package io.kubesched.cli.manifest;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1CSINode;
import io.kubernetes.client.openapi.models.V1CSINodeDriver;
import io.kubernetes.client.openapi.models.V1CSIStorageCapacity;
import io.kubernetes.client.openapi.models.V1NodeSelector;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimSpec;
import io.kubernetes.client.openapi.models.V1PersistentVolumeSpec;
import io.kubernetes.client.openapi.models.V1StorageClass;
import io.kubesched.framework.FieldError;
import io.kubesched.framework.validation.FieldErrors;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The API server's validation of the storage kinds, as far as the scheduler's decisions depend on
 * it (kube's {@code ValidatePersistentVolume}, {@code ValidatePersistentVolumeClaim}, {@code
 * ValidateStorageClass}, {@code ValidateCSINode} and {@code ValidateCSIStorageCapacity}): the field
 * paths and words are kube's.
 */
final class StorageValidation {
  private static final List<String> ACCESS_MODES =
      List.of("ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod");
  private static final List<String> VOLUME_MODES = List.of("Block", "Filesystem");
  private static final List<String> PV_RECLAIM = List.of("Delete", "Recycle", "Retain");
  private static final List<String> SC_RECLAIM = List.of("Delete", "Retain");
  private static final List<String> BINDING_MODES = List.of("Immediate", "WaitForFirstConsumer");
  private static final List<String> OPERATORS =
      List.of("DoesNotExist", "Exists", "Gt", "In", "Lt", "NotIn");
  private static final String NEGATIVE = "must be greater than or equal to 0";

  /** The fields of the PV spec that are volume sources; kube wants exactly one. */
  private static final List<String> PV_SOURCES =
      List.of(
          "awsElasticBlockStore",
          "azureDisk",
          "azureFile",
          "cephfs",
          "cinder",
          "csi",
          "fc",
          "flexVolume",
          "flocker",
          "gcePersistentDisk",
          "glusterfs",
          "hostPath",
          "iscsi",
          "local",
          "nfs",
          "photonPersistentDisk",
          "portworxVolume",
          "quobyte",
          "rbd",
          "scaleIO",
          "storageos",
          "vsphereVolume");

  private StorageValidation() {}

  /**
   * Returns the storage-specific problems of {@code decoded} ({@code raw} is its decoded YAML, for
   * quantities as written); nothing for the other kinds.
   */
  static List<FieldError> validate(Object decoded, Map<String, Object> raw) {
    if (decoded instanceof V1PersistentVolume pv) {
      return persistentVolume(pv, raw);
    } else if (decoded instanceof V1PersistentVolumeClaim pvc) {
      return persistentVolumeClaim(pvc, raw);
    } else if (decoded instanceof V1StorageClass sc) {
      return storageClass(sc);
    } else if (decoded instanceof V1CSINode node) {
      return csiNode(node);
    } else if (decoded instanceof V1CSIStorageCapacity c) {
      return csiStorageCapacity(c, raw);
    }
    return List.of();
  }

  /** Returns the problems of a persistent volume; {@code raw} is its decoded YAML. */
  static List<FieldError> persistentVolume(V1PersistentVolume pv, Map<String, Object> raw) {
    List<FieldError> errs = new ArrayList<>();
    V1PersistentVolumeSpec spec = pv.getSpec();
    if (spec == null) {
      errs.add(FieldErrors.required("spec", "must specify a volume type"));
      return errs;
    }
    Map<String, Quantity> capacity = spec.getCapacity();
    if (capacity == null || capacity.isEmpty()) {
      errs.add(FieldErrors.required("spec.capacity", ""));
    } else {
      if (!capacity.containsKey("storage") || capacity.size() > 1) {
        errs.add(
            FieldErrors.notSupported(
                "spec.capacity", new ArrayList<>(capacity.keySet()), "storage"));
      }
      capacity.forEach(
          (k, q) ->
              nonNegative(errs, "spec.capacity[" + k + "]", q, raw(raw, "spec", "capacity", k)));
    }
    accessModes(errs, spec.getAccessModes());
    if (spec.getPersistentVolumeReclaimPolicy() != null
        && !PV_RECLAIM.contains(spec.getPersistentVolumeReclaimPolicy())) {
      errs.add(
          FieldErrors.notSupported(
              "spec.persistentVolumeReclaimPolicy",
              spec.getPersistentVolumeReclaimPolicy(),
              PV_RECLAIM));
    }
    volumeMode(errs, spec.getVolumeMode());
    Object rawSpec = raw.get("spec");
    long sources =
        rawSpec instanceof Map<?, ?> m ? PV_SOURCES.stream().filter(m::containsKey).count() : 0;
    if (sources == 0) {
      errs.add(FieldErrors.required("spec", "must specify a volume type"));
    } else if (sources > 1) {
      errs.add(FieldErrors.forbidden("spec", "may not specify more than 1 volume type"));
    }
    if (spec.getNodeAffinity() != null) {
      V1NodeSelector required = spec.getNodeAffinity().getRequired();
      if (required == null) {
        errs.add(
            FieldErrors.required(
                "spec.nodeAffinity.required", "must specify required node constraints"));
      } else {
        nodeSelector(errs, required, "spec.nodeAffinity.required");
      }
    }
    return errs;
  }

  /** Returns the problems of a persistent volume claim. */
  static List<FieldError> persistentVolumeClaim(
      V1PersistentVolumeClaim pvc, Map<String, Object> raw) {
    List<FieldError> errs = new ArrayList<>();
    V1PersistentVolumeClaimSpec spec = pvc.getSpec();
    if (spec == null) {
      errs.add(FieldErrors.required("spec.accessModes", "at least 1 access mode is required"));
      errs.add(FieldErrors.required("spec.resources[storage]", ""));
      return errs;
    }
    if (spec.getAccessModes() == null || spec.getAccessModes().isEmpty()) {
      errs.add(FieldErrors.required("spec.accessModes", "at least 1 access mode is required"));
    } else {
      accessModes(errs, spec.getAccessModes());
    }
    Quantity storage =
        spec.getResources() == null || spec.getResources().getRequests() == null
            ? null
            : spec.getResources().getRequests().get("storage");
    if (storage == null) {
      errs.add(FieldErrors.required("spec.resources[storage]", ""));
    } else {
      nonNegative(
          errs,
          "spec.resources[storage]",
          storage,
          raw(raw, "spec", "resources", "requests", "storage"));
    }
    volumeMode(errs, spec.getVolumeMode());
    return errs;
  }

  /** Returns the problems of a storage class. */
  static List<FieldError> storageClass(V1StorageClass sc) {
    List<FieldError> errs = new ArrayList<>();
    if (sc.getProvisioner() == null || sc.getProvisioner().isEmpty()) {
      errs.add(FieldErrors.required("provisioner", ""));
    }
    if (sc.getReclaimPolicy() != null && !SC_RECLAIM.contains(sc.getReclaimPolicy())) {
      errs.add(FieldErrors.notSupported("reclaimPolicy", sc.getReclaimPolicy(), SC_RECLAIM));
    }
    if (sc.getVolumeBindingMode() != null && !BINDING_MODES.contains(sc.getVolumeBindingMode())) {
      errs.add(
          FieldErrors.notSupported("volumeBindingMode", sc.getVolumeBindingMode(), BINDING_MODES));
    }
    return errs;
  }

  /** Returns the problems of a CSINode. */
  static List<FieldError> csiNode(V1CSINode node) {
    List<FieldError> errs = new ArrayList<>();
    if (node.getSpec() == null || node.getSpec().getDrivers() == null) {
      errs.add(FieldErrors.required("spec.drivers", ""));
      return errs;
    }
    List<V1CSINodeDriver> drivers = node.getSpec().getDrivers();
    for (int i = 0; i < drivers.size(); i++) {
      V1CSINodeDriver d = drivers.get(i);
      String path = FieldErrors.index("spec.drivers", i);
      if (d.getName() == null || d.getName().isEmpty()) {
        errs.add(FieldErrors.required(path + ".name", ""));
      }
      if (d.getNodeID() == null || d.getNodeID().isEmpty()) {
        errs.add(FieldErrors.required(path + ".nodeID", ""));
      }
      if (d.getAllocatable() != null
          && d.getAllocatable().getCount() != null
          && d.getAllocatable().getCount() < 0) {
        errs.add(
            FieldErrors.invalid(
                path + ".allocatable.count", d.getAllocatable().getCount(), NEGATIVE));
      }
    }
    return errs;
  }

  /** Returns the problems of a CSIStorageCapacity. */
  static List<FieldError> csiStorageCapacity(V1CSIStorageCapacity c, Map<String, Object> raw) {
    List<FieldError> errs = new ArrayList<>();
    if (c.getStorageClassName() == null || c.getStorageClassName().isEmpty()) {
      errs.add(FieldErrors.required("storageClassName", ""));
    }
    if (c.getCapacity() != null) {
      nonNegative(errs, "capacity", c.getCapacity(), raw(raw, "capacity"));
    }
    if (c.getMaximumVolumeSize() != null) {
      nonNegative(
          errs, "maximumVolumeSize", c.getMaximumVolumeSize(), raw(raw, "maximumVolumeSize"));
    }
    return errs;
  }

  private static void accessModes(List<FieldError> errs, List<String> modes) {
    if (modes == null || modes.isEmpty()) {
      errs.add(FieldErrors.required("spec.accessModes", ""));
      return;
    }
    for (String m : modes) {
      if (!ACCESS_MODES.contains(m)) {
        errs.add(FieldErrors.notSupported("spec.accessModes", m, ACCESS_MODES));
      }
    }
    if (modes.contains("ReadWriteOncePod") && modes.size() > 1) {
      errs.add(
          FieldErrors.forbidden(
              "spec.accessModes", "may not use ReadWriteOncePod with other access modes"));
    }
  }

  private static void volumeMode(List<FieldError> errs, String mode) {
    if (mode != null && !VOLUME_MODES.contains(mode)) {
      errs.add(FieldErrors.notSupported("spec.volumeMode", mode, VOLUME_MODES));
    }
  }

  private static void nonNegative(List<FieldError> errs, String path, Quantity q, String text) {
    if (q.getNumber().compareTo(BigDecimal.ZERO) < 0) {
      errs.add(FieldErrors.invalid(path, text == null ? q.toSuffixedString() : text, NEGATIVE));
    }
  }

  /** Returns the value at {@code path} of the decoded YAML as written, or {@code null}. */
  private static String raw(Map<String, Object> obj, String... path) {
    Object at = obj;
    for (String p : path) {
      if (!(at instanceof Map<?, ?> m)) {
        return null;
      }
      at = m.get(p);
    }
    return at == null ? null : String.valueOf(at);
  }

  private static void nodeSelector(List<FieldError> errs, V1NodeSelector sel, String path) {
    List<V1NodeSelectorTerm> terms = sel.getNodeSelectorTerms();
    String termsPath = path + ".nodeSelectorTerms";
    if (terms == null || terms.isEmpty()) {
      errs.add(FieldErrors.required(termsPath, "must have at least one node selector term"));
      return;
    }
    for (int i = 0; i < terms.size(); i++) {
      List<V1NodeSelectorRequirement> reqs = terms.get(i).getMatchExpressions();
      if (reqs == null) {
        continue;
      }
      for (int j = 0; j < reqs.size(); j++) {
        requirement(
            errs,
            reqs.get(j),
            FieldErrors.index(FieldErrors.index(termsPath, i) + ".matchExpressions", j));
      }
    }
  }

  private static void requirement(List<FieldError> errs, V1NodeSelectorRequirement r, String p) {
    String op = r.getOperator();
    int values = r.getValues() == null ? 0 : r.getValues().size();
    if (op == null || !OPERATORS.contains(op)) {
      errs.add(
          FieldErrors.invalid(
              p + ".operator", op == null ? "" : op, "not a valid selector operator"));
    } else if ((op.equals("In") || op.equals("NotIn")) && values == 0) {
      errs.add(
          FieldErrors.required(
              p + ".values", "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if ((op.equals("Exists") || op.equals("DoesNotExist")) && values > 0) {
      errs.add(
          FieldErrors.forbidden(
              p + ".values", "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    } else if ((op.equals("Gt") || op.equals("Lt")) && values != 1) {
      errs.add(
          FieldErrors.required(
              p + ".values", "must be specified single value when `operator` is 'Lt' or 'Gt'"));
    }
    if (r.getKey() == null || r.getKey().isEmpty()) {
      errs.add(FieldErrors.invalid(p + ".key", "", "name part must be non-empty"));
    }
  }
}
