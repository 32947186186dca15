package io.kubesched.plugins.dynamicresources;

import io.kubernetes.client.openapi.models.V1Device;
import io.kubernetes.client.openapi.models.V1DeviceAttribute;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One {@code matchAttribute} constraint of a claim while the search runs: the attribute value the
 * first device fixed and how many devices of the constrained requests are in.
 */
final class MatchAttribute {
  final Set<String> requests;
  final String attribute;
  V1DeviceAttribute value;
  int numDevices;

  MatchAttribute(List<String> requests, String attribute) {
    this.requests = requests == null ? Set.of() : new HashSet<>(requests);
    this.attribute = attribute;
  }

  boolean applies(Req r) {
    return requests.isEmpty()
        || requests.contains(r.parentName() == null ? r.name() : r.parentName())
        || r.parentName() != null && requests.contains(r.fullName());
  }

  boolean add(Req r, Candidate c) {
    if (!applies(r)) {
      return true;
    }
    V1DeviceAttribute a = lookupAttribute(c.device(), c.id().driver(), attribute);
    if (a == null) {
      return false;
    }
    if (numDevices == 0) {
      value = a;
      numDevices = 1;
      return true;
    }
    boolean same;
    if (a.getString() != null) {
      same = a.getString().equals(value.getString());
    } else if (a.getInt() != null) {
      same = a.getInt().equals(value.getInt());
    } else if (a.getBool() != null) {
      same = a.getBool().equals(value.getBool());
    } else if (a.getVersion() != null) {
      same = a.getVersion().equals(value.getVersion());
    } else {
      same = false;
    }
    if (same) {
      numDevices++;
    }
    return same;
  }

  void remove(Req r) {
    if (applies(r)) {
      numDevices--;
    }
  }

  /**
   * The attribute {@code qualified} of {@code device}: the fully qualified name, or the short name
   * when the domain is the device's driver; {@code null} when absent.
   */
  static V1DeviceAttribute lookupAttribute(V1Device device, String driver, String qualified) {
    Map<String, V1DeviceAttribute> attrs = device.getAttributes();
    if (attrs == null) {
      return null;
    }
    V1DeviceAttribute a = attrs.get(qualified);
    if (a != null) {
      return a;
    }
    int i = qualified.indexOf('/');
    if (i < 0 || !qualified.substring(0, i).equals(driver)) {
      return null;
    }
    return attrs.get(qualified.substring(i + 1));
  }
}
