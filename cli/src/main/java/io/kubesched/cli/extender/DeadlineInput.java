package io.kubesched.cli.extender;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A buffered socket input whose reads fail with {@link SocketTimeoutException} once a deadline has
 * passed: each read waits at most until the deadline, so a client trickling bytes cannot stretch
 * it.
 */
final class DeadlineInput {
  private final Socket socket;
  private final InputStream raw;
  private final byte[] buf = new byte[1 << 16];
  private int pos;
  private int end;
  private long deadline;

  DeadlineInput(Socket socket) throws IOException {
    this.socket = socket;
    this.raw = socket.getInputStream();
  }

  void deadline(Duration d) {
    deadline = System.nanoTime() + d.toNanos();
  }

  private void setTimeout() throws IOException {
    long left = deadline - System.nanoTime();
    if (left <= 0) {
      throw new SocketTimeoutException("deadline passed");
    }
    socket.setSoTimeout((int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
  }

  /** Fills the empty buffer; returns false at the end of the stream. */
  private boolean fill() throws IOException {
    setTimeout();
    int n = raw.read(buf, 0, buf.length);
    if (n <= 0) {
      return false;
    }
    pos = 0;
    end = n;
    return true;
  }

  /** Waits for a byte; false at the end of the stream or when the deadline passes first. */
  boolean awaitByte() throws IOException {
    if (pos < end) {
      return true;
    }
    try {
      return fill();
    } catch (SocketTimeoutException e) {
      return false;
    }
  }

  /** Reads a line (without its CR LF), counting its bytes against {@code budget}. */
  String line(int[] budget) throws IOException, HttpError {
    StringBuilder sb = new StringBuilder(64);
    for (; ; ) {
      if (pos == end && !fill()) {
        throw new EOFException("end of stream in the request head");
      }
      byte b = buf[pos++];
      if (--budget[0] < 0) {
        throw new HttpError(431, "request header fields too large");
      }
      if (b == '\n') {
        int len = sb.length();
        if (len > 0 && sb.charAt(len - 1) == '\r') {
          sb.setLength(len - 1);
        }
        return sb.toString();
      }
      sb.append((char) (b & 0xff));
    }
  }

  byte[] readFully(int n) throws IOException {
    byte[] out = new byte[n];
    int off = 0;
    while (off < n) {
      if (pos == end && !fill()) {
        throw new EOFException("end of stream in the request body");
      }
      int k = Math.min(n - off, end - pos);
      System.arraycopy(buf, pos, out, off, k);
      pos += k;
      off += k;
    }
    return out;
  }

  void skip(long n) throws IOException {
    while (n > 0) {
      if (pos == end && !fill()) {
        throw new EOFException("end of stream in the request body");
      }
      int k = (int) Math.min(n, end - pos);
      pos += k;
      n -= k;
    }
  }

  void skipAtMost(long n) throws IOException {
    while (n > 0) {
      if (pos == end && !fill()) {
        return;
      }
      int k = (int) Math.min(n, end - pos);
      pos += k;
      n -= k;
    }
  }
}
