package io.kubesched.plugins.nodevolumelimits;

import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeSpec;
import io.kubernetes.client.openapi.models.V1Volume;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/**
 * What NodeVolumeLimits needs of kube's {@code csi-translation-lib}: which in-tree volume plugins
 * migrate to which CSI drivers, the volume handle a migrated volume gets, and which migrations are
 * on in v1.33 (AWS EBS, GCE PD, Azure Disk, Cinder and Portworx).
 */
final class CsiTranslation {
  static final String AWS_EBS = "kubernetes.io/aws-ebs";
  static final String GCE_PD = "kubernetes.io/gce-pd";
  static final String AZURE_DISK = "kubernetes.io/azure-disk";
  static final String AZURE_FILE = "kubernetes.io/azure-file";
  static final String CINDER = "kubernetes.io/cinder";
  static final String VSPHERE = "kubernetes.io/vsphere-volume";
  static final String PORTWORX = "kubernetes.io/portworx-volume";

  /** The CSI driver of each migratable in-tree plugin. */
  static final Map<String, String> CSI_DRIVERS =
      Map.of(
          AWS_EBS, "ebs.csi.aws.com",
          GCE_PD, "pd.csi.storage.gke.io",
          AZURE_DISK, "disk.csi.azure.com",
          AZURE_FILE, "file.csi.azure.com",
          CINDER, "cinder.csi.openstack.org",
          VSPHERE, "csi.vsphere.vmware.com",
          PORTWORX, "pxd.portworx.com");

  private static final String LIMIT_PREFIX = "attachable-volumes-csi-";
  private static final int RESOURCE_NAME_LIMIT = 63;

  /** A migrated volume: its CSI driver and volume handle. */
  record CsiVolume(String driver, String handle) {}

  private CsiTranslation() {}

  /**
   * Returns whether the in-tree plugin's migration is on in kube v1.33 (kube's isCSIMigrationOn).
   */
  static boolean migrationOn(boolean haveCsiNode, String plugin) {
    if (!haveCsiNode || plugin == null || plugin.isEmpty()) {
      return false;
    }
    return plugin.equals(AWS_EBS)
        || plugin.equals(PORTWORX)
        || plugin.equals(GCE_PD)
        || plugin.equals(AZURE_DISK)
        || plugin.equals(CINDER);
  }

  /** Returns whether {@code name} is a migratable in-tree plugin (a StorageClass provisioner). */
  static boolean isMigratablePlugin(String name) {
    return CSI_DRIVERS.containsKey(name);
  }

  /** Returns the in-tree plugin of an inline volume, or {@code null} when it is not migratable. */
  static String inlinePlugin(V1Volume v) {
    if (v.getAwsElasticBlockStore() != null) {
      return AWS_EBS;
    }
    if (v.getGcePersistentDisk() != null) {
      return GCE_PD;
    }
    if (v.getAzureDisk() != null) {
      return AZURE_DISK;
    }
    if (v.getAzureFile() != null) {
      return AZURE_FILE;
    }
    if (v.getCinder() != null) {
      return CINDER;
    }
    if (v.getVsphereVolume() != null) {
      return VSPHERE;
    }
    if (v.getPortworxVolume() != null) {
      return PORTWORX;
    }
    return null;
  }

  /** Returns the in-tree plugin of a PV, or {@code null} when it is not migratable. */
  static String pvPlugin(V1PersistentVolumeSpec s) {
    if (s.getAwsElasticBlockStore() != null) {
      return AWS_EBS;
    }
    if (s.getGcePersistentDisk() != null) {
      return GCE_PD;
    }
    if (s.getAzureDisk() != null) {
      return AZURE_DISK;
    }
    if (s.getAzureFile() != null) {
      return AZURE_FILE;
    }
    if (s.getCinder() != null) {
      return CINDER;
    }
    if (s.getVsphereVolume() != null) {
      return VSPHERE;
    }
    if (s.getPortworxVolume() != null) {
      return PORTWORX;
    }
    return null;
  }

  /** Translates an inline volume of an attachable migrated plugin; {@code null} otherwise. */
  static CsiVolume translateInline(V1Volume v) {
    String plugin = inlinePlugin(v);
    if (plugin == null) {
      return null;
    }
    String handle =
        switch (plugin) {
          case AWS_EBS -> ebsVolumeId(v.getAwsElasticBlockStore().getVolumeID());
          case GCE_PD ->
              "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/"
                  + v.getGcePersistentDisk().getPdName();
          case AZURE_DISK -> v.getAzureDisk().getDiskURI();
          case CINDER -> v.getCinder().getVolumeID();
          case PORTWORX -> v.getPortworxVolume().getVolumeID();
          default -> null;
        };
    return handle == null ? null : new CsiVolume(CSI_DRIVERS.get(plugin), handle);
  }

  /** Translates a PV of an attachable migrated plugin; {@code null} otherwise. */
  static CsiVolume translatePv(V1PersistentVolume pv) {
    V1PersistentVolumeSpec s = pv.getSpec();
    String plugin = pvPlugin(s);
    if (plugin == null) {
      return null;
    }
    String handle =
        switch (plugin) {
          case AWS_EBS -> ebsVolumeId(s.getAwsElasticBlockStore().getVolumeID());
          case GCE_PD -> gceHandle(pv);
          case AZURE_DISK -> s.getAzureDisk().getDiskURI();
          case CINDER -> s.getCinder().getVolumeID();
          case PORTWORX -> s.getPortworxVolume().getVolumeID();
          default -> null;
        };
    return handle == null ? null : new CsiVolume(CSI_DRIVERS.get(plugin), handle);
  }

  private static String gceHandle(V1PersistentVolume pv) {
    Map<String, String> labels =
        pv.getMetadata() == null || pv.getMetadata().getLabels() == null
            ? Map.of()
            : pv.getMetadata().getLabels();
    String zone = labels.get("topology.kubernetes.io/zone");
    if (zone == null) {
      zone = labels.get("failure-domain.beta.kubernetes.io/zone");
    }
    String disk = pv.getSpec().getGcePersistentDisk().getPdName();
    if (zone == null || zone.isEmpty()) {
      return "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/" + disk;
    }
    if (zone.contains("__")) {
      String first = zone.split("__")[0];
      String region = first.substring(0, Math.max(0, first.lastIndexOf('-')));
      return "projects/UNSPECIFIED/regions/" + region + "/disks/" + disk;
    }
    return "projects/UNSPECIFIED/zones/" + zone + "/disks/" + disk;
  }

  /** Strips an {@code aws://<zone>/} prefix from an EBS volume ID, as the translation does. */
  static String ebsVolumeId(String id) {
    if (id == null || !id.startsWith("aws://")) {
      return id;
    }
    int slash = id.lastIndexOf('/');
    return id.substring(slash + 1);
  }

  /**
   * Returns the node resource name of a CSI driver's attach limit (kube's {@code
   * GetCSIAttachLimitKey}): {@code attachable-volumes-csi-<driver>}, shortened with a SHA-1 of the
   * driver name when that would reach 63 characters.
   */
  static String attachLimitKey(String driver) {
    if (LIMIT_PREFIX.length() + driver.length() < RESOURCE_NAME_LIMIT) {
      return LIMIT_PREFIX + driver;
    }
    try {
      byte[] sum =
          MessageDigest.getInstance("SHA-1").digest(driver.getBytes(StandardCharsets.UTF_8));
      return LIMIT_PREFIX
          + driver.substring(0, 23)
          + HexFormat.of().formatHex(sum).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is always available", e);
    }
  }
}
