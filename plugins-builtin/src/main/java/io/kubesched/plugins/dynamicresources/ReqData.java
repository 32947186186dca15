package io.kubesched.plugins.dynamicresources;

import io.kubernetes.client.openapi.models.V1DeviceClass;
import java.util.List;

/** Per request/sub-request data: the request, its class, how many devices, "all" devices. */
final class ReqData {
  final Req req;
  final V1DeviceClass deviceClass;
  int numDevices;
  List<Candidate> allDevices;
  int selectedSub;

  ReqData(Req req, V1DeviceClass deviceClass) {
    this.req = req;
    this.deviceClass = deviceClass;
  }
}
