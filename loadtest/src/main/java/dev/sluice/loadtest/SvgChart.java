package dev.sluice.loadtest;

import java.util.List;
import java.util.Locale;

/** Inline SVG charts for the HTML report: lines over a numeric x axis, columns, horizontal bars. */
final class SvgChart {

  /** One line: a name, a CSS colour and (x, y) points; null y values leave a gap. */
  record Series(String name, String color, double[] xs, Double[] ys) {}

  /** One horizontal bar. */
  record Bar(String label, double value, String color) {}

  private static final int W = 720;
  private static final int H = 260;
  private static final int L = 64;
  private static final int R = 16;
  private static final int T = 28;
  private static final int B = 40;

  private SvgChart() {}

  static String lines(String xLabel, String yLabel, List<Series> series, boolean logX, boolean area) {
    double minX = Double.MAX_VALUE;
    double maxX = -Double.MAX_VALUE;
    double maxY = 0;
    for (Series s : series) {
      for (int i = 0; i < s.xs().length; i++) {
        minX = Math.min(minX, s.xs()[i]);
        maxX = Math.max(maxX, s.xs()[i]);
        if (s.ys()[i] != null) {
          maxY = Math.max(maxY, s.ys()[i]);
        }
      }
    }
    if (minX == Double.MAX_VALUE) {
      return empty();
    }
    double top = niceCeiling(maxY);
    double fx0 = logX ? Math.log10(Math.max(minX, 1e-9)) : minX;
    double fx1 = logX ? Math.log10(Math.max(maxX, 1e-9)) : maxX;
    if (fx1 == fx0) {
      fx1 = fx0 + 1;
    }
    StringBuilder b = open();
    grid(b, top, yLabel);
    double[] ticks = logX ? series.get(0).xs() : linearTicks(minX, maxX);
    for (double t : ticks) {
      double x = L + ((logX ? Math.log10(t) : t) - fx0) / (fx1 - fx0) * (W - L - R);
      b.append(String.format(Locale.ROOT, "<text x='%.1f' y='%d' class='tick' text-anchor='middle'>%s</text>",
          x, H - B + 16, num(t)));
    }
    b.append(String.format(Locale.ROOT, "<text x='%d' y='%d' class='axis' text-anchor='middle'>%s</text>",
        L + (W - L - R) / 2, H - 6, esc(xLabel)));
    int legendX = L + 8;
    for (Series s : series) {
      StringBuilder path = new StringBuilder();
      boolean pen = false;
      double firstX = -1;
      double lastX = -1;
      for (int i = 0; i < s.xs().length; i++) {
        if (s.ys()[i] == null) {
          pen = false;
          continue;
        }
        double x = L + ((logX ? Math.log10(s.xs()[i]) : s.xs()[i]) - fx0) / (fx1 - fx0) * (W - L - R);
        double y = T + (1 - s.ys()[i] / top) * (H - T - B);
        path.append(pen ? " L" : " M").append(String.format(Locale.ROOT, "%.1f %.1f", x, y));
        if (firstX < 0) {
          firstX = x;
        }
        lastX = x;
        pen = true;
        if (logX || s.xs().length <= 12) {
          b.append(String.format(Locale.ROOT, "<circle cx='%.1f' cy='%.1f' r='3.5' fill='%s'><title>%s: %s</title></circle>",
              x, y, s.color(), esc(s.name()), num(s.ys()[i])));
        }
      }
      if (area && firstX >= 0 && !path.toString().substring(1).contains("M")) {
        b.append(String.format(Locale.ROOT, "<path d='%s L%.1f %d L%.1f %d Z' fill='%s' fill-opacity='0.12' stroke='none'/>",
            path, lastX, H - B, firstX, H - B, s.color()));
      }
      b.append(String.format("<path d='%s' fill='none' stroke='%s' stroke-width='2' stroke-linejoin='round'/>",
          path, s.color()));
      b.append(String.format(Locale.ROOT, "<rect x='%d' y='8' width='12' height='4' rx='2' fill='%s'/>"
          + "<text x='%d' y='14' class='legend'>%s</text>", legendX, s.color(), legendX + 16, esc(s.name())));
      legendX += 28 + s.name().length() * 7;
    }
    return b.append("</svg>").toString();
  }

  static String bars(List<Bar> bars) {
    if (bars.isEmpty()) {
      return "<p class='muted'>No errors and no intended error outcomes.</p>";
    }
    double max = bars.stream().mapToDouble(Bar::value).max().orElse(1);
    int rowH = 26;
    int labelW = 260;
    int width = W;
    StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
        "<svg viewBox='0 0 %d %d' class='chart' role='img'>", width, bars.size() * rowH + 8));
    for (int i = 0; i < bars.size(); i++) {
      Bar bar = bars.get(i);
      double len = bar.value() / Math.max(max, 1) * (width - labelW - 70);
      int y = 4 + i * rowH;
      b.append(String.format(Locale.ROOT, "<text x='%d' y='%d' class='tick' text-anchor='end'>%s</text>",
          labelW - 8, y + 15, esc(bar.label())));
      b.append(String.format(Locale.ROOT, "<rect x='%d' y='%d' width='%.1f' height='18' rx='3' fill='%s'/>",
          labelW, y + 2, Math.max(2, len), bar.color()));
      b.append(String.format(Locale.ROOT, "<text x='%.1f' y='%d' class='tick'>%s</text>",
          labelW + Math.max(2, len) + 6, y + 15, num(bar.value())));
    }
    return b.append("</svg>").toString();
  }

  private static StringBuilder open() {
    return new StringBuilder(String.format("<svg viewBox='0 0 %d %d' class='chart' role='img'>", W, H));
  }

  private static String empty() {
    return "<p class='muted'>No data.</p>";
  }

  private static void grid(StringBuilder b, double top, String yLabel) {
    for (int i = 0; i <= 4; i++) {
      double v = top * i / 4;
      double y = T + (1 - (double) i / 4) * (H - T - B);
      b.append(String.format(Locale.ROOT, "<line x1='%d' x2='%d' y1='%.1f' y2='%.1f' class='%s'/>",
          L, W - R, y, y, i == 0 ? "base" : "grid"));
      b.append(String.format(Locale.ROOT, "<text x='%d' y='%.1f' class='tick' text-anchor='end'>%s</text>",
          L - 6, y + 4, num(v)));
    }
    b.append(String.format(Locale.ROOT,
        "<text transform='translate(14 %d) rotate(-90)' class='axis' text-anchor='middle'>%s</text>",
        T + (H - T - B) / 2, esc(yLabel)));
  }

  private static double[] linearTicks(double min, double max) {
    int n = 6;
    double step = niceCeiling((max - min) / n);
    if (step <= 0) {
      return new double[] {min};
    }
    int count = (int) Math.floor((max - min) / step) + 1;
    double[] t = new double[count];
    for (int i = 0; i < count; i++) {
      t[i] = min + i * step;
    }
    return t;
  }

  static double niceCeiling(double v) {
    if (v <= 0) {
      return 1;
    }
    double mag = Math.pow(10, Math.floor(Math.log10(v)));
    for (double m : new double[] {1, 2, 2.5, 5, 10}) {
      if (v <= m * mag) {
        return m * mag;
      }
    }
    return 10 * mag;
  }

  static String num(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e9) {
      return String.format(Locale.ROOT, "%,d", (long) v);
    }
    return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%,.0f", v)
        : Math.abs(v) >= 10 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.2f", v);
  }

  static String esc(String s) {
    return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        .replace("'", "&#39;").replace("\"", "&quot;");
  }
}
