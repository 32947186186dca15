package io.kubesched.cli.extender;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A raw HTTP client for the abuse cases: writes bytes as given, reads the answer to the end. */
final class RawHttp implements AutoCloseable {
  final Socket socket;

  /** Connects to {@code address}; every read gives up after 20 s (a safety net, never reached). */
  RawHttp(InetSocketAddress address) throws IOException {
    socket = new Socket(address.getAddress(), address.getPort());
    socket.setSoTimeout(20_000);
  }

  RawHttp send(String text) throws IOException {
    return send(text.getBytes(StandardCharsets.ISO_8859_1));
  }

  RawHttp send(byte[] bytes) throws IOException {
    socket.getOutputStream().write(bytes);
    socket.getOutputStream().flush();
    return this;
  }

  /** Reads until the server closes the connection. */
  String readToEnd() throws IOException {
    InputStream in = socket.getInputStream();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buf = new byte[8192];
    try {
      for (int n; (n = in.read(buf)) > 0; ) {
        out.write(buf, 0, n);
      }
    } catch (java.net.SocketException e) {
      // a reset after the answer: what was read is the answer
    }
    return out.toString(StandardCharsets.ISO_8859_1);
  }

  /** Reads one response whose body has a Content-Length, leaving the connection open. */
  String readResponse() throws IOException {
    InputStream in = socket.getInputStream();
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("closed in the head: " + head);
      }
      head.write(b);
    }
    String h = head.toString(StandardCharsets.ISO_8859_1);
    int at = h.toLowerCase().indexOf("content-length: ");
    int len = Integer.parseInt(h.substring(at + 16, h.indexOf("\r\n", at)).trim());
    return h + new String(in.readNBytes(len), StandardCharsets.UTF_8);
  }

  /** The status line and body of a response, as {@code "413 body"}. */
  static String statusAndBody(String response) {
    if (response.isEmpty()) {
      return "";
    }
    String status = response.substring(9, 12);
    return status + " " + response.substring(response.indexOf("\r\n\r\n") + 4);
  }

  /** A POST of {@code body} with {@code Connection: close}. */
  static String post(String path, String body) {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    return "POST "
        + path
        + " HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: "
        + b.length
        + "\r\nConnection: close\r\n\r\n"
        + new String(b, StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
