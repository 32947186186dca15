package io.kubesched.framework;

/**
 * A host port a container asks for.
 *
 * @param ip the host IP, {@code 0.0.0.0} when unset
 * @param protocol {@code TCP}, {@code UDP} or {@code SCTP}; {@code TCP} when unset
 * @param port the host port, &gt; 0
 */
public record HostPort(String ip, String protocol, int port) {
  /** The wildcard address. */
  public static final String DEFAULT_IP = "0.0.0.0";

  /** Applies kube's defaults for an empty IP and protocol. */
  public HostPort {
    ip = ip == null || ip.isEmpty() ? DEFAULT_IP : ip;
    protocol = protocol == null || protocol.isEmpty() ? "TCP" : protocol;
  }

  /**
   * Returns whether this wanted port conflicts with a used one: the same protocol and port, and the
   * same IP or either IP is the wildcard.
   */
  public boolean conflictsWith(HostPort used) {
    return port == used.port
        && protocol.equals(used.protocol)
        && (ip.equals(used.ip) || DEFAULT_IP.equals(ip) || DEFAULT_IP.equals(used.ip));
  }
}
