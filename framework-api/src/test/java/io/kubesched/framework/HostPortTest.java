package io.kubesched.framework;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class HostPortTest {
  static Stream<Arguments> conflicts() {
    return Stream.of(
        Arguments.argumentSet(
            "wanted 0.0.0.0 conflicts with any IP",
            new HostPort("0.0.0.0", "TCP", 80),
            new HostPort("127.0.0.1", "TCP", 80),
            true),
        Arguments.argumentSet(
            "wanted specific IP conflicts with used 0.0.0.0",
            new HostPort("127.0.0.1", "TCP", 80),
            new HostPort("0.0.0.0", "TCP", 80),
            true),
        Arguments.argumentSet(
            "same IP, protocol and port",
            new HostPort("127.0.0.1", "TCP", 80),
            new HostPort("127.0.0.1", "TCP", 80),
            true),
        Arguments.argumentSet(
            "different specific IPs do not conflict",
            new HostPort("127.0.0.1", "TCP", 80),
            new HostPort("127.0.0.2", "TCP", 80),
            false),
        Arguments.argumentSet(
            "different protocols do not conflict",
            new HostPort("0.0.0.0", "UDP", 80),
            new HostPort("0.0.0.0", "TCP", 80),
            false),
        Arguments.argumentSet(
            "different ports do not conflict",
            new HostPort("0.0.0.0", "TCP", 8080),
            new HostPort("0.0.0.0", "TCP", 80),
            false),
        Arguments.argumentSet(
            "empty IP and protocol mean 0.0.0.0 and TCP",
            new HostPort("", "", 80),
            new HostPort("10.0.0.1", "TCP", 80),
            true),
        Arguments.argumentSet(
            "SCTP against a defaulted TCP does not conflict",
            new HostPort("10.0.0.1", "SCTP", 80),
            new HostPort(null, null, 80),
            false));
  }

  @ParameterizedTest
  @MethodSource("conflicts")
  void conflictsWith(HostPort wanted, HostPort used, boolean want) {
    assertThat(wanted.conflictsWith(used)).isEqualTo(want);
  }

  @Test
  void defaultsAreApplied() {
    assertThat(new HostPort(null, "", 53)).isEqualTo(new HostPort("0.0.0.0", "TCP", 53));
  }
}
