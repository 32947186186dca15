package io.kubesched.plugins.dynamicresources;

import static io.kubesched.plugins.dynamicresources.Allocator.deviceClaim;
import static io.kubesched.plugins.dynamicresources.Allocator.name;
import static io.kubesched.plugins.dynamicresources.Allocator.requests;

import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1AllocationResult;
import io.kubernetes.client.openapi.models.V1Device;
import io.kubernetes.client.openapi.models.V1DeviceAllocationConfiguration;
import io.kubernetes.client.openapi.models.V1DeviceAllocationResult;
import io.kubernetes.client.openapi.models.V1DeviceClaim;
import io.kubernetes.client.openapi.models.V1DeviceClaimConfiguration;
import io.kubernetes.client.openapi.models.V1DeviceClassConfiguration;
import io.kubernetes.client.openapi.models.V1DeviceRequest;
import io.kubernetes.client.openapi.models.V1DeviceRequestAllocationResult;
import io.kubernetes.client.openapi.models.V1NodeSelector;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1ResourceSlice;
import io.kubesched.plugins.dynamicresources.Allocator.AllocationException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

/**
 * Turns the allocator's picked devices into a claim's {@code status.allocation}, as kube's
 * allocator does once a search succeeds: device results, configurations and the node selector.
 */
final class AllocationResults {
  private AllocationResults() {}

  /** One picked device for a request or sub-request. */
  record Result(Req req, DeviceId id, V1Device device, V1ResourceSlice slice) {}

  /**
   * The allocation result of claim number {@code ci}: its devices in search order, the class and
   * claim configurations for the requests (or chosen sub-requests) they name, and the node selector
   * the devices' slices imply.
   */
  static V1AllocationResult build(
      ResourceV1ResourceClaim claim, int ci, List<Result> results, ReqTable data)
      throws AllocationException {
    V1DeviceClaim dc = deviceClaim(claim);
    List<V1DeviceRequest> requests = requests(dc);
    V1DeviceAllocationResult devices = new V1DeviceAllocationResult();
    List<V1DeviceRequestAllocationResult> rs = new ArrayList<>();
    for (Result r : results) {
      rs.add(
          new V1DeviceRequestAllocationResult()
              .request(r.req().fullName())
              .driver(r.id().driver())
              .pool(r.id().pool())
              .device(r.id().device())
              .adminAccess(r.req().adminAccess() ? Boolean.TRUE : null));
    }
    devices.setResults(rs);
    List<V1DeviceAllocationConfiguration> configs = new ArrayList<>();
    Map<String, int[]> classRanges = new HashMap<>();
    for (int ri = 0; ri < requests.size(); ri++) {
      ReqData d = data.get(ci, ri, 0);
      if (d.req.parentName() != null) {
        d = data.get(ci, ri, d.selectedSub);
      }
      String className = name(d.deviceClass);
      int[] range = classRanges.get(className);
      if (range != null) {
        for (int i = range[0]; i < range[1]; i++) {
          configs.get(i).getRequests().add(d.req.fullName());
        }
        continue;
      }
      int start = configs.size();
      List<V1DeviceClassConfiguration> cc =
          d.deviceClass.getSpec() == null ? null : d.deviceClass.getSpec().getConfig();
      if (cc != null) {
        for (V1DeviceClassConfiguration c : cc) {
          List<String> reqs = new ArrayList<>();
          reqs.add(d.req.fullName());
          configs.add(
              new V1DeviceAllocationConfiguration()
                  .source("FromClass")
                  .requests(reqs)
                  .opaque(c.getOpaque()));
        }
      }
      classRanges.put(className, new int[] {start, configs.size()});
    }
    List<V1DeviceClaimConfiguration> claimConfigs = dc == null ? null : dc.getConfig();
    if (claimConfigs != null) {
      for (V1DeviceClaimConfiguration c : claimConfigs) {
        List<String> reqs = c.getRequests();
        if (reqs == null || reqs.isEmpty()) {
          configs.add(
              new V1DeviceAllocationConfiguration()
                  .source("FromClaim")
                  .requests(null)
                  .opaque(c.getOpaque()));
          continue;
        }
        for (int ri = 0; ri < requests.size(); ri++) {
          V1DeviceRequest request = requests.get(ri);
          if (reqs.contains(request.getName())) {
            configs.add(
                new V1DeviceAllocationConfiguration()
                    .source("FromClaim")
                    .requests(reqs)
                    .opaque(c.getOpaque()));
            continue;
          }
          ReqData d = data.get(ci, ri, 0);
          if (d.req.parentName() == null) {
            continue;
          }
          ReqData chosen = data.get(ci, ri, d.selectedSub);
          if (reqs.contains(chosen.req.fullName())) {
            configs.add(
                new V1DeviceAllocationConfiguration()
                    .source("FromClaim")
                    .requests(reqs)
                    .opaque(c.getOpaque()));
          }
        }
      }
    }
    for (V1DeviceAllocationConfiguration c : configs) {
      if (c.getRequests() != null && c.getRequests().size() == requests.size()) {
        c.setRequests(null);
      }
    }
    devices.setConfig(configs.isEmpty() ? null : configs);
    return new V1AllocationResult().devices(devices).nodeSelector(nodeSelector(claim, results));
  }

  /**
   * Returns whether {@link #build} cannot fail for these results: it fails only on a node selector
   * of several terms, so such results are built (and the failure raised) at once.
   */
  static boolean cannotFail(List<Result> rs) {
    for (Result r : rs) {
      V1NodeSelector sel =
          Boolean.TRUE.equals(r.slice().getSpec().getPerDeviceNodeSelection())
              ? r.device().getNodeSelector()
              : r.slice().getSpec().getNodeSelector();
      if (sel != null
          && sel.getNodeSelectorTerms() != null
          && sel.getNodeSelectorTerms().size() > 1) {
        return false;
      }
    }
    return true;
  }

  private static V1NodeSelector nodeSelector(ResourceV1ResourceClaim claim, List<Result> rs)
      throws AllocationException {
    V1NodeSelectorTerm term = new V1NodeSelectorTerm();
    for (Result r : rs) {
      String nodeName;
      V1NodeSelector sel;
      if (Boolean.TRUE.equals(r.slice().getSpec().getPerDeviceNodeSelection())) {
        nodeName = r.device().getNodeName();
        sel = r.device().getNodeSelector();
      } else {
        nodeName = r.slice().getSpec().getNodeName();
        sel = r.slice().getSpec().getNodeSelector();
      }
      if (nodeName != null && !nodeName.isEmpty()) {
        return new V1NodeSelector()
            .addNodeSelectorTermsItem(
                new V1NodeSelectorTerm()
                    .addMatchFieldsItem(
                        new V1NodeSelectorRequirement()
                            .key("metadata.name")
                            .operator("In")
                            .values(new ArrayList<>(List.of(nodeName)))));
      }
      if (sel != null && sel.getNodeSelectorTerms() != null) {
        switch (sel.getNodeSelectorTerms().size()) {
          case 0 -> {}
          case 1 -> {
            V1NodeSelectorTerm t = sel.getNodeSelectorTerms().get(0);
            addNew(t.getMatchFields(), term, true);
            addNew(t.getMatchExpressions(), term, false);
          }
          default ->
              throw new AllocationException(
                  "create NodeSelector for claim "
                      + claim.getMetadata().getName()
                      + ": unsupported ResourceSlice.NodeSelector with "
                      + sel.getNodeSelectorTerms().size()
                      + " terms");
        }
      }
    }
    boolean empty =
        (term.getMatchFields() == null || term.getMatchFields().isEmpty())
            && (term.getMatchExpressions() == null || term.getMatchExpressions().isEmpty());
    return empty ? null : new V1NodeSelector().addNodeSelectorTermsItem(term);
  }

  private static void addNew(
      List<V1NodeSelectorRequirement> from, V1NodeSelectorTerm term, boolean fields) {
    if (from == null) {
      return;
    }
    for (V1NodeSelectorRequirement r : from) {
      List<V1NodeSelectorRequirement> to =
          fields ? term.getMatchFields() : term.getMatchExpressions();
      boolean present = false;
      if (to != null) {
        for (V1NodeSelectorRequirement e : to) {
          if (e.getKey().equals(r.getKey())
              && e.getOperator().equals(r.getOperator())
              && new HashSet<>(nullToEmpty(e.getValues()))
                  .equals(new HashSet<>(nullToEmpty(r.getValues())))) {
            present = true;
            break;
          }
        }
      }
      if (!present) {
        if (fields) {
          term.addMatchFieldsItem(r);
        } else {
          term.addMatchExpressionsItem(r);
        }
      }
    }
  }

  private static List<String> nullToEmpty(List<String> l) {
    return l == null ? List.of() : l;
  }
}
