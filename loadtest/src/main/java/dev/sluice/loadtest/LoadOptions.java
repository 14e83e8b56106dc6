package dev.sluice.loadtest;

import java.util.ArrayList;
import java.util.List;

/** Command-line options of every mode; see loadtest/README.md for each flag. */
public final class LoadOptions {

  /** One gateway, or several nodes (comma-separated) that agents reach as through a load balancer. */
  public String url = "http://127.0.0.1:7878/mcp";
  /** The node-loss drill: this gateway process is killed with SIGKILL {@link #killAfterSeconds} into the run. */
  public long killPid = -1;
  public double killAfterSeconds = 20;
  public String token;
  public String connection = "demo";
  public String dialect = "sqlite";
  public int agents = 10;
  public double durationSeconds = 10;
  public double rampUpSeconds = 0;
  public long thinkTimeMs = 0;
  public String mix = "tiny=70,medium=10,large=2,explain=5,connections=10,runaway=2,cancel=1";
  public long maxCalls = 1_000_000;
  public String out = "loadtest/results";
  public List<Integer> sweep = new ArrayList<>();
  public boolean idle;
  public boolean sse;
  public String direct;
  public boolean compare;
  /** Compare mode: gateway and direct runs per side, alternated (G D, D G, ...) so drift falls on both. */
  public int rounds = 1;
  public long gatewayPid = -1;
  public long callTimeoutMs = 60_000;
  public int directPoolSize = 0;
  public String label;
  public double warmupSeconds = 0;
  /**
   * The generator's event loops: one per core, not Vert.x's two. It shares the cores with what it
   * measures, and every thread more is a wake-up more per burst of answers (docs/performance.md).
   */
  public int eventLoops = Runtime.getRuntime().availableProcessors();
  /** Idle mode: MCP pings per second from one probe session while the sessions are held (0: none). */
  public double pingRate = 20;

  /** Parses {@code --flag value} pairs; throws IllegalArgumentException with a usage hint. */
  public static LoadOptions parse(String[] args) {
    LoadOptions o = new LoadOptions();
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      switch (flag) {
        case "--idle" -> o.idle = true;
        case "--sse" -> o.sse = true;
        case "--compare" -> o.compare = true;
        case "--help", "-h" -> throw new IllegalArgumentException("help");
        default -> {
          if (i + 1 >= args.length) {
            throw new IllegalArgumentException("missing value for " + flag);
          }
          o.set(flag, args[++i]);
        }
      }
    }
    o.validate();
    return o;
  }

  private void set(String flag, String v) {
    switch (flag) {
      case "--url" -> url = v;
      case "--kill-pid" -> killPid = Long.parseLong(v);
      case "--kill-after" -> killAfterSeconds = seconds(v);
      case "--token" -> token = v;
      case "--connection" -> connection = v;
      case "--dialect" -> dialect = v;
      case "--agents" -> agents = Integer.parseInt(v);
      case "--duration" -> durationSeconds = seconds(v);
      case "--ramp-up" -> rampUpSeconds = seconds(v);
      case "--think-time" -> thinkTimeMs = Math.round(seconds(v) * 1000);
      case "--mix" -> mix = v;
      case "--max-calls" -> maxCalls = Long.parseLong(v);
      case "--out" -> out = v;
      case "--sweep" -> {
        for (String s : v.split(",")) {
          sweep.add(Integer.parseInt(s.trim()));
        }
      }
      case "--direct" -> direct = v;
      case "--gateway-pid" -> gatewayPid = Long.parseLong(v);
      case "--call-timeout" -> callTimeoutMs = Math.round(seconds(v) * 1000);
      case "--direct-pool" -> directPoolSize = Integer.parseInt(v);
      case "--label" -> label = v;
      case "--warmup" -> warmupSeconds = seconds(v);
      case "--ping-rate" -> pingRate = Double.parseDouble(v);
      case "--rounds" -> rounds = Integer.parseInt(v);
      case "--event-loops" -> eventLoops = Integer.parseInt(v);
      default -> throw new IllegalArgumentException("unknown flag " + flag);
    }
  }

  /**
   * A copy for one of the two warm-up fleets: same target, mix and agents (at most 64, for sweeps
   * of thousands), half the warm-up each, no ramp-up.
   */
  LoadOptions warmup() {
    LoadOptions w = new LoadOptions();
    w.url = url;
    w.token = token;
    w.connection = connection;
    w.dialect = dialect;
    w.agents = Math.min(agents, 64);
    w.durationSeconds = warmupSeconds / 2;
    w.thinkTimeMs = thinkTimeMs;
    w.mix = mix;
    w.maxCalls = maxCalls;
    w.callTimeoutMs = callTimeoutMs;
    w.sse = sse;
    return w;
  }

  /** Accepts 30, 30s, 500ms, 2m. */
  static double seconds(String v) {
    String s = v.trim().toLowerCase();
    if (s.endsWith("ms")) {
      return Double.parseDouble(s.substring(0, s.length() - 2)) / 1000.0;
    }
    if (s.endsWith("m")) {
      return Double.parseDouble(s.substring(0, s.length() - 1)) * 60;
    }
    if (s.endsWith("s")) {
      return Double.parseDouble(s.substring(0, s.length() - 1));
    }
    return Double.parseDouble(s);
  }

  private void validate() {
    for (String u : url.split(",")) {
      Loopback.require(u);
    }
    if (killPid > 0 && url.split(",").length < 2) {
      throw new IllegalArgumentException("--kill-pid needs several --url nodes to fail over to");
    }
    if (direct != null) {
      Loopback.require(direct.replaceFirst("^postgres(ql)?://", "http://").replaceFirst("^mysql://", "http://"));
    }
    if (agents < 1 || durationSeconds <= 0 || maxCalls < 1) {
      throw new IllegalArgumentException("--agents, --duration and --max-calls must be positive");
    }
    if (pingRate < 0 || pingRate > 1000) {
      throw new IllegalArgumentException("--ping-rate must be between 0 and 1000 per second");
    }
    if (eventLoops < 1 || eventLoops > 64) {
      throw new IllegalArgumentException("--event-loops takes 1 to 64");
    }
    if (compare && direct == null) {
      throw new IllegalArgumentException("--compare needs --direct URL");
    }
    if (rounds < 1 || rounds > 20 || rounds > 1 && (!compare || !sweep.isEmpty())) {
      throw new IllegalArgumentException("--rounds takes 1 to 20, and more than 1 only with --compare (no --sweep)");
    }
  }

  static String usage() {
    return """
        usage: LoadTestMain [--url URL] [--token T] [--connection ID] [--dialect sqlite|postgres|mysql]
                            [--agents N] [--duration 30s] [--ramp-up 5s] [--think-time 0ms]
                            [--mix tiny=70,medium=10,large=2,explain=5,connections=10,runaway=2,cancel=1]
                            [--max-calls N] [--out DIR] [--sweep 1,10,100,1000] [--sse]
                            [--idle] [--direct postgresql://user@127.0.0.1:5432/db [--compare [--rounds N]]]
                            [--gateway-pid PID] [--call-timeout 60s] [--direct-pool N] [--label TEXT] [--event-loops N]
                            [--warmup 3s] [--ping-rate 20] [--url URL1,URL2,URL3 [--kill-pid PID --kill-after 20s]]
        Only loopback targets are accepted. See loadtest/README.md.""";
  }
}
