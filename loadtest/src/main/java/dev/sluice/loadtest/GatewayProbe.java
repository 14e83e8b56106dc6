package dev.sluice.loadtest;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Reads the gateway's heap and CPU from outside, on a plain thread (never an event loop). CPU
 * seconds come from /proc/PID/stat when the gateway's PID is known, else from the
 * process_cpu_time_ns_total counter, else integrated from the process_cpu_usage gauge sampled once
 * a second (coarse).
 */
final class GatewayProbe implements AutoCloseable {

  /** Linux USER_HZ; 100 on every mainstream kernel configuration. */
  private static final double CLOCK_TICKS = 100.0;

  private final URI metrics;
  private final long pid;
  private final String token;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
  private volatile boolean sampling;
  private volatile double integratedCpuSeconds;
  private volatile double peakHeapBytes;
  private Thread sampler;

  GatewayProbe(URI mcpUrl, long pid, String token) {
    this.metrics = mcpUrl.resolve("/metrics");
    this.pid = pid;
    this.token = token;
  }

  /** Snapshot: heapBytes, cpuSeconds (null when unknown), sessions and SSE streams open. */
  JsonObject sample() {
    JsonObject j = new JsonObject();
    String text = scrape();
    if (text != null) {
      j.put("heapBytes", sum(text, "jvm_memory_used_bytes{area=\"heap\""));
      j.put("sessionsOpen", sum(text, "sluice_sessions_open"));
      j.put("sseStreamsOpen", sum(text, "sluice_sse_streams_open"));
    }
    Double cpu = procCpuSeconds();
    if (cpu != null) {
      j.put("cpuSeconds", cpu).put("cpuSource", "/proc/" + pid + "/stat").put("threadCpuSeconds", threadCpuSeconds());
    } else if (text != null && text.contains("process_cpu_time_ns_total")) {
      j.put("cpuSeconds", sum(text, "process_cpu_time_ns_total") / 1e9).put("cpuSource", "process_cpu_time_ns_total");
    } else {
      j.put("cpuSeconds", integratedCpuSeconds).put("cpuSource", "process_cpu_usage gauge, 1 s samples");
    }
    return j;
  }

  /** Starts the once-a-second sampler (CPU integration fallback and peak heap). */
  void start() {
    sampling = true;
    sampler = new Thread(() -> {
      long last = System.nanoTime();
      while (sampling) {
        try {
          Thread.sleep(1000);
        } catch (InterruptedException e) {
          return;
        }
        String text = scrape();
        long now = System.nanoTime();
        if (text != null) {
          double usage = sum(text, "process_cpu_usage");
          double cpus = Math.max(1, sum(text, "system_cpu_count"));
          integratedCpuSeconds += usage * cpus * (now - last) / 1e9;
          peakHeapBytes = Math.max(peakHeapBytes, sum(text, "jvm_memory_used_bytes{area=\"heap\""));
        }
        last = now;
      }
    }, "gateway-probe");
    sampler.setDaemon(true);
    sampler.start();
  }

  double peakHeapBytes() {
    return peakHeapBytes;
  }

  @Override
  public void close() {
    sampling = false;
    if (sampler != null) {
      sampler.interrupt();
    }
  }

  private String scrape() {
    try {
      HttpRequest.Builder b = HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(5)).GET();
      if (token != null) {
        b.header("Authorization", "Bearer " + token);
      }
      HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      return r.statusCode() == 200 ? r.body() : null;
    } catch (Exception e) {
      return null;
    }
  }

  /** Sums every sample of the metric whose line starts with {@code prefix}. */
  static double sum(String text, String prefix) {
    double total = 0;
    for (String line : text.split("\n")) {
      if (line.startsWith(prefix) && (line.length() > prefix.length())) {
        char next = line.charAt(prefix.length());
        if (next == ' ' || next == '{' || next == ',' || next == '}') {
          try {
            total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
          } catch (NumberFormatException ignored) {
            // exemplars or odd lines: not our gauge
          }
        }
      }
    }
    return total;
  }

  /**
   * CPU seconds of the gateway's live threads by kind (from /proc/PID/task/TID/stat): event loops,
   * JIT compiler, garbage collector and the rest, so a per-call figure can be split into the work
   * of the calls and the JVM's warm-up. A thread that ended took its seconds with it (they stay in
   * the process total), so the kinds can add up to less than the total.
   */
  private JsonObject threadCpuSeconds() {
    JsonObject out = new JsonObject().put("eventLoops", 0.0).put("jit", 0.0).put("gc", 0.0).put("other", 0.0);
    try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
      for (Path task : tasks.toList()) {
        try {
          String stat = Files.readString(task.resolve("stat"), StandardCharsets.UTF_8);
          String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
          String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
          double seconds = (Long.parseLong(f[11]) + Long.parseLong(f[12])) / CLOCK_TICKS;
          String kind = threadKind(name);
          out.put(kind, out.getDouble(kind) + seconds);
        } catch (Exception ended) {
          // the thread ended between the listing and the read
        }
      }
    } catch (Exception e) {
      return null;
    }
    return out;
  }

  /** Kind of a JVM thread by its (15-character) kernel name. */
  static String threadKind(String name) {
    if (name.startsWith("vert.x-eventloo")) {
      return "eventLoops";
    }
    if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
      return "jit";
    }
    if (name.startsWith("GC Thread") || name.startsWith("G1 ") || name.equals("VM Thread")) {
      return "gc";
    }
    return "other";
  }

  private Double procCpuSeconds() {
    if (pid <= 0) {
      return null;
    }
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.UTF_8);
      // fields after the parenthesised command name; utime and stime are fields 14 and 15
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / CLOCK_TICKS;
    } catch (Exception e) {
      return null;
    }
  }
}
