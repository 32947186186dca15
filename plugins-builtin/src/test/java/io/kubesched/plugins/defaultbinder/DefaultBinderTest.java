package io.kubesched.plugins.defaultbinder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.ClusterClient;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.SchedulingException;
import io.kubesched.framework.Status;
import io.kubesched.testing.MakePod;
import org.junit.jupiter.api.Test;

final class DefaultBinderTest {
  private final ClusterClient client = mock(ClusterClient.class);
  private final FrameworkHandle handle = mock(FrameworkHandle.class);

  DefaultBinderTest() {
    when(handle.client()).thenReturn(client);
  }

  @Test
  void bindsThroughTheClient() {
    PodInfo pod = MakePod.pod().name("foo").namespace("ns").info();
    assertThat(new DefaultBinder(handle).bind(new CycleState(), pod, "foohost.kube-system"))
        .isEqualTo(Status.success());
    verify(client).bind(pod.pod(), "foohost.kube-system");
  }

  @Test
  void aFailedBindingIsAnError() {
    PodInfo pod = MakePod.pod().name("foo").namespace("ns").info();
    doThrow(new SchedulingException("binding rejected")).when(client).bind(pod.pod(), "n1");
    Status s = new DefaultBinder(handle).bind(new CycleState(), pod, "n1");
    assertThat(s.code()).isEqualTo(Status.Code.ERROR);
    assertThat(s.message()).isEqualTo("binding rejected");
    assertThat(s).isEqualTo(Status.error("binding rejected"));
    assertThat(pod.pod()).isInstanceOf(V1Pod.class);
  }
}
