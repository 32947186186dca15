package io.kubesched.core.config;

/**
 * The TLS settings of an HTTP extender ({@code extenders[].tlsConfig}). The {@code *Data} fields
 * hold the base64 text of PEM data as written in the configuration; they take precedence over the
 * matching {@code *File} fields.
 *
 * @param insecure whether the server certificate is not verified
 * @param serverName the server name sent for SNI and checked in the certificate, or {@code null}
 * @param certFile the client certificate file, or {@code null}
 * @param keyFile the client key file, or {@code null}
 * @param caFile the trusted root certificates file, or {@code null}
 * @param certData the client certificate (base64 of PEM), or {@code null}
 * @param keyData the client key (base64 of PEM), or {@code null}
 * @param caData the trusted root certificates (base64 of PEM), or {@code null}
 */
public record ExtenderTlsConfig(
    boolean insecure,
    String serverName,
    String certFile,
    String keyFile,
    String caFile,
    String certData,
    String keyData,
    String caData) {}
