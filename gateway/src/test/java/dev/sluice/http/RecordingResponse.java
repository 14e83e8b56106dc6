package dev.sluice.http;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

/** An HTTP response that records each socket write made to it; every fluent call returns itself. */
final class RecordingResponse {

  private final List<String> writes = new ArrayList<>();
  private boolean ended;

  /** The response to hand to an {@link SseSink}. */
  HttpServerResponse response() {
    return (HttpServerResponse) Proxy.newProxyInstance(RecordingResponse.class.getClassLoader(),
        new Class<?>[] {HttpServerResponse.class}, (proxy, method, args) -> {
          switch (method.getName()) {
            case "write":
            case "end":
              synchronized (writes) {
                if (args != null && args.length > 0 && args[0] instanceof Buffer b) {
                  writes.add(b.toString());
                }
                ended |= method.getName().equals("end");
              }
              return Future.succeededFuture();
            case "writeQueueFull":
            case "headWritten":
              return false;
            case "writeHead":
              return Future.succeededFuture();
            default:
              return method.getReturnType().isInstance(proxy) ? proxy : null;
          }
        });
  }

  /** The writes so far, each as the text it carried. */
  List<String> writes() {
    synchronized (writes) {
      return new ArrayList<>(writes);
    }
  }

  boolean ended() {
    synchronized (writes) {
      return ended;
    }
  }
}
