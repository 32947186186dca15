package io.kubesched.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimSpec;
import io.kubernetes.client.openapi.models.V1PersistentVolumeSpec;
import io.kubernetes.client.openapi.models.V1StorageClass;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.EventResource;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class InMemoryClusterStorageTest {
  record Change(String resource, int action, String oldName, String newName) {}

  private static String name(Object o) {
    return o == null
        ? null
        : ((io.kubernetes.client.common.KubernetesObject) o).getMetadata().getName();
  }

  @Test
  void storesStorageObjectsWithTheApiServersDefaultsAndReportsTheirChanges() {
    InMemoryCluster cluster = new InMemoryCluster();
    List<Change> changes = new ArrayList<>();
    cluster.addListener(
        new ClusterListener() {
          @Override
          public void onStorageChange(String resource, int action, Object oldObj, Object newObj) {
            changes.add(new Change(resource, action, name(oldObj), name(newObj)));
          }
        });
    cluster.create(
        new V1StorageClass()
            .metadata(
                new V1ObjectMeta()
                    .name("std")
                    .putAnnotationsItem("storageclass.kubernetes.io/is-default-class", "true"))
            .provisioner("p"));
    cluster.create(
        new V1PersistentVolume()
            .metadata(new V1ObjectMeta().name("pv1"))
            .spec(new V1PersistentVolumeSpec().storageClassName("std")));
    V1PersistentVolumeClaim pvc =
        cluster.create(
            new V1PersistentVolumeClaim()
                .metadata(new V1ObjectMeta().name("c1").namespace("ns"))
                .spec(new V1PersistentVolumeClaimSpec()));
    V1PersistentVolumeClaim updated =
        cluster.updatePersistentVolumeClaim(
            new V1PersistentVolumeClaim()
                .metadata(pvc.getMetadata())
                .spec(pvc.getSpec().volumeName("pv1"))
                .status(pvc.getStatus()));
    cluster.delete(V1PersistentVolume.class, null, "pv1");

    assertThat(cluster.getStorageClass("std").orElseThrow().getVolumeBindingMode())
        .isEqualTo("Immediate");
    assertThat(pvc.getSpec().getStorageClassName()).isEqualTo("std");
    assertThat(pvc.getStatus().getPhase()).isEqualTo("Pending");
    assertThat(pvc.getMetadata().getUid()).isNotNull();
    assertThat(cluster.getPersistentVolumeClaim("ns", "c1")).contains(updated);
    assertThat(cluster.listPersistentVolumes()).isEmpty();
    assertThat(changes)
        .containsExactly(
            new Change(EventResource.STORAGE_CLASS, ActionType.ADD, null, "std"),
            new Change(EventResource.PERSISTENT_VOLUME, ActionType.ADD, null, "pv1"),
            new Change(EventResource.PERSISTENT_VOLUME_CLAIM, ActionType.ADD, null, "c1"),
            new Change(EventResource.PERSISTENT_VOLUME_CLAIM, ActionType.UPDATE, "c1", "c1"),
            new Change(EventResource.PERSISTENT_VOLUME, ActionType.DELETE, "pv1", null));
  }

  @Test
  void aNewVolumeIsAvailable() {
    InMemoryCluster cluster = new InMemoryCluster();
    V1PersistentVolume pv =
        cluster.create(
            new V1PersistentVolume()
                .metadata(new V1ObjectMeta().name("pv1"))
                .spec(new V1PersistentVolumeSpec()));
    assertThat(pv.getStatus().getPhase()).isEqualTo("Available");
    assertThat(pv.getSpec().getVolumeMode()).isEqualTo("Filesystem");
    assertThat(pv.getSpec().getPersistentVolumeReclaimPolicy()).isEqualTo("Retain");
  }
}
