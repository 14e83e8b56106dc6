package dev.sluice.http;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/** A raw HTTP/1.1 exchange, for headers java.net.http refuses to set (Host). */
final class RawHttp {

  record Answer(int status, String text) {}

  private RawHttp() {}

  static Answer get(URI base, String path, String... headers) throws Exception {
    try (Socket s = new Socket(base.getHost(), base.getPort())) {
      s.setSoTimeout(10_000);
      StringBuilder req = new StringBuilder("GET ").append(path).append(" HTTP/1.1\r\n");
      for (String h : headers) {
        req.append(h).append("\r\n");
      }
      req.append("Accept: application/json, text/event-stream\r\nConnection: close\r\n\r\n");
      OutputStream out = s.getOutputStream();
      out.write(req.toString().getBytes(StandardCharsets.UTF_8));
      out.flush();
      InputStream in = s.getInputStream();
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return new Answer(Integer.parseInt(text.substring(9, 12)), text);
    }
  }

  /**
   * Sends {@code head} (request line and headers, without the blank line), then each chunk of
   * {@code body} as it is, flushed and {@code pauseMs} apart, and reads until the server closes. A
   * server that answers and closes early is expected: writes after that are dropped.
   */
  static String send(URI base, String head, int pauseMs, byte[]... body) throws Exception {
    try (Socket s = new Socket(base.getHost(), base.getPort())) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write((head + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
      try {
        for (byte[] chunk : body) {
          Thread.sleep(pauseMs);
          out.write(chunk);
          out.flush();
        }
      } catch (java.io.IOException closedEarly) {
        // the server refused the body and closed; its answer is still to be read
      }
      return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
