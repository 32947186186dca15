package io.kubesched.plugins.dynamicresources;

import io.kubernetes.client.openapi.models.V1DeviceRequest;
import io.kubernetes.client.openapi.models.V1DeviceSelector;
import io.kubernetes.client.openapi.models.V1DeviceSubRequest;
import io.kubernetes.client.openapi.models.V1ExactDeviceRequest;
import java.util.List;

/**
 * A request or sub-request as the allocator's search sees it: {@code parentName} is set for a
 * {@code firstAvailable} sub-request.
 */
record Req(
    String name,
    String parentName,
    String className,
    String mode,
    long count,
    boolean adminAccess,
    boolean hasAdminAccess,
    List<V1DeviceSelector> selectors) {
  String fullName() {
    return parentName == null ? name : parentName + "/" + name;
  }

  static Req exact(V1DeviceRequest r) {
    V1ExactDeviceRequest e = r.getExactly();
    return new Req(
        r.getName(),
        null,
        e.getDeviceClassName(),
        e.getAllocationMode() == null ? "ExactCount" : e.getAllocationMode(),
        e.getCount() == null ? 1 : e.getCount(),
        Boolean.TRUE.equals(e.getAdminAccess()),
        e.getAdminAccess() != null,
        e.getSelectors() == null ? List.of() : e.getSelectors());
  }

  static Req sub(V1DeviceRequest parent, V1DeviceSubRequest s) {
    return new Req(
        s.getName(),
        parent.getName(),
        s.getDeviceClassName(),
        s.getAllocationMode() == null ? "ExactCount" : s.getAllocationMode(),
        s.getCount() == null ? 1 : s.getCount(),
        false,
        false,
        s.getSelectors() == null ? List.of() : s.getSelectors());
  }
}
