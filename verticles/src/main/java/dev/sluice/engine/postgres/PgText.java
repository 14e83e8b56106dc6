package dev.sluice.engine.postgres;

import dev.sluice.sql.result.ValueFormat;
import io.vertx.core.json.JsonArray;
import io.vertx.pgclient.data.Box;
import io.vertx.pgclient.data.Cidr;
import io.vertx.pgclient.data.Circle;
import io.vertx.pgclient.data.Inet;
import io.vertx.pgclient.data.Line;
import io.vertx.pgclient.data.LineSegment;
import io.vertx.pgclient.data.Money;
import io.vertx.pgclient.data.Path;
import io.vertx.pgclient.data.Point;
import io.vertx.pgclient.data.Polygon;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.List;

/**
 * The PG client's own value objects (network addresses, geometric types, money) as PostgreSQL
 * prints them: {@code 1.2.3.22/16}, {@code (1,2.5)}, {@code <(1,2),3>}. The client gives
 * inet and cidr no text form at all (an agent read {@code io.vertx.pgclient.data.Inet@5e2de80c})
 * and the others a Java one ({@code Point(1.0,2.5)}, {@code Money(12.34)}). Money is the plain
 * amount: its symbol and grouping depend on the server's {@code lc_monetary}. Everything else
 * goes to {@link ValueFormat}.
 */
final class PgText {

  private PgText() {
  }

  static Object format(Object v) {
    if (v instanceof Object[] array) {
      JsonArray out = new JsonArray();
      for (Object o : array) {
        out.add(format(o));
      }
      return out;
    }
    String text = text(v);
    return text != null ? text : ValueFormat.format(v);
  }

  private static String text(Object v) {
    if (v instanceof Inet i) {
      return address(i.getAddress(), i.getNetmask(), false);
    } else if (v instanceof Cidr c) {
      return address(c.getAddress(), c.getNetmask(), true);
    } else if (v instanceof Point p) {
      return point(p);
    } else if (v instanceof Line l) {
      return "{" + number(l.getA()) + "," + number(l.getB()) + "," + number(l.getC()) + "}";
    } else if (v instanceof LineSegment s) {
      return "[" + point(s.getP1()) + "," + point(s.getP2()) + "]";
    } else if (v instanceof Box b) {
      return point(b.getUpperRightCorner()) + "," + point(b.getLowerLeftCorner());
    } else if (v instanceof Path p) {
      return (p.isOpen() ? "[" : "(") + points(p.getPoints()) + (p.isOpen() ? "]" : ")");
    } else if (v instanceof Polygon p) {
      return "(" + points(p.getPoints()) + ")";
    } else if (v instanceof Circle c) {
      return "<" + point(c.getCenterPoint()) + "," + number(c.getRadius()) + ">";
    } else if (v instanceof Money m) {
      return m.bigDecimalValue().toPlainString();
    }
    return null;
  }

  /**
   * inet shows its mask only when it is not the whole address; cidr always does. The client turns
   * an IPv4-mapped IPv6 address (the ffff prefix before a dotted quad) into an IPv4 one; only a
   * mask wider than 32 bits still tells, so a mapped address with its full mask reads as IPv4.
   */
  private static String address(InetAddress a, Integer mask, boolean cidr) {
    boolean v4 = a instanceof Inet4Address;
    String host = v4 ? a.getHostAddress() : ipv6(a.getAddress());
    if (v4 && mask != null && mask > 32) {
      host = "::ffff:" + host;
    }
    int bits = v4 && (mask == null || mask <= 32) ? 32 : 128;
    return mask == null || !cidr && mask == bits ? host : host + "/" + mask;
  }

  /** RFC 5952, as PostgreSQL prints it: lower case, no leading zeros, the longest run of zero groups as ::. */
  static String ipv6(byte[] b) {
    int[] g = new int[8];
    for (int i = 0; i < 8; i++) {
      g[i] = (b[2 * i] & 0xff) << 8 | b[2 * i + 1] & 0xff;
    }
    int bestStart = -1;
    int bestLen = 1;
    for (int i = 0; i < 8; i++) {
      int j = i;
      while (j < 8 && g[j] == 0) {
        j++;
      }
      if (j - i > bestLen) {
        bestStart = i;
        bestLen = j - i;
      }
      i = Math.max(i, j);
    }
    if (bestStart == 0 && bestLen == 5 && g[5] == 0xffff || bestStart == 0 && bestLen == 6) {
      // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) end in dotted quads
      String tail = (g[6] >> 8) + "." + (g[6] & 0xff) + "." + (g[7] >> 8) + "." + (g[7] & 0xff);
      return (bestLen == 5 ? "::ffff:" : "::") + tail;
    }
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      if (i == bestStart) {
        s.append(i == 0 ? "::" : ":");
        i += bestLen - 1;
        continue;
      }
      s.append(Integer.toHexString(g[i]));
      if (i < 7) {
        s.append(':');
      }
    }
    return s.toString();
  }

  private static String points(List<Point> points) {
    StringBuilder s = new StringBuilder();
    for (Point p : points) {
      if (s.length() > 0) {
        s.append(',');
      }
      s.append(point(p));
    }
    return s.toString();
  }

  private static String point(Point p) {
    return "(" + number(p.x) + "," + number(p.y) + ")";
  }

  private static String number(double d) {
    return ValueFormat.shortest(d);
  }
}
