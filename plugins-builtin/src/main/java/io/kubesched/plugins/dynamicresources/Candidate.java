package io.kubesched.plugins.dynamicresources;

import io.kubernetes.client.openapi.models.V1Device;
import io.kubernetes.client.openapi.models.V1ResourceSlice;

/** A device the search may pick, with the slice that publishes it. */
record Candidate(DeviceId id, V1Device device, V1ResourceSlice slice) {}
