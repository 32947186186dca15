package io.kubesched.plugins.dynamicresources;

import io.kubernetes.client.openapi.models.V1DeviceClass;
import io.kubernetes.client.openapi.models.V1DeviceSelector;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Per request/sub-request data: the request, its class, how many devices, "all" devices. */
final class ReqData {
  final Req req;
  final V1DeviceClass deviceClass;
  int numDevices;
  List<Candidate> allDevices;
  int selectedSub;

  /**
   * The class's and the request's selectors (the request's CEL expressions in order) as a key of
   * the slice index's outcomes.
   */
  final SliceIndex.SelectorKey selectors;

  ReqData(Req req, V1DeviceClass deviceClass) {
    this(req, deviceClass, expressionsOf(req.selectors()));
  }

  /** The same with the request's expressions already listed (shared by every node's search). */
  ReqData(Req req, V1DeviceClass deviceClass, List<String> expressions) {
    this.req = req;
    this.deviceClass = deviceClass;
    this.selectors = new SliceIndex.SelectorKey(deviceClass, expressions);
  }

  /** The CEL expressions of {@code selectors}, in order, as an unmodifiable list. */
  static List<String> expressionsOf(List<V1DeviceSelector> selectors) {
    List<String> exprs = new ArrayList<>(selectors.size());
    for (V1DeviceSelector s : selectors) {
      exprs.add(s.getCel() == null ? null : s.getCel().getExpression());
    }
    return Collections.unmodifiableList(exprs);
  }
}
