package dev.sluice.engine.mysql;

import io.vertx.mysqlclient.data.spatial.Geometry;
import io.vertx.mysqlclient.data.spatial.GeometryCollection;
import io.vertx.mysqlclient.data.spatial.LineString;
import io.vertx.mysqlclient.data.spatial.MultiLineString;
import io.vertx.mysqlclient.data.spatial.MultiPoint;
import io.vertx.mysqlclient.data.spatial.MultiPolygon;
import io.vertx.mysqlclient.data.spatial.Point;
import io.vertx.mysqlclient.data.spatial.Polygon;
import dev.sluice.sql.result.ValueFormat;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * A spatial value as the text {@code ST_AsText} gives ({@code POINT(1 2)}), with an {@code SRID=n;}
 * prefix when it has one. The client decodes spatial columns into objects without a text form of
 * their own: rendered as they were, an agent read {@code ...spatial.Point@10f56e93}.
 */
final class GeometryText {

  private GeometryText() {
  }

  static String of(Geometry g) {
    StringBuilder b = new StringBuilder();
    if (g.getSRID() != 0) {
      b.append("SRID=").append(g.getSRID()).append(';');
    }
    tagged(b, g);
    return b.toString();
  }

  private static void tagged(StringBuilder b, Geometry g) {
    if (g instanceof Point p) {
      b.append("POINT(");
      point(b, p);
      b.append(')');
    } else if (g instanceof LineString l) {
      b.append("LINESTRING");
      points(b, l.getPoints());
    } else if (g instanceof Polygon p) {
      b.append("POLYGON");
      rings(b, p.getLineStrings());
    } else if (g instanceof MultiPoint m) {
      b.append("MULTIPOINT");
      list(b, m.getPoints(), (out, p) -> {
        out.append('(');
        point(out, p);
        out.append(')');
      });
    } else if (g instanceof MultiLineString m) {
      b.append("MULTILINESTRING");
      rings(b, m.getLineStrings());
    } else if (g instanceof MultiPolygon m) {
      b.append("MULTIPOLYGON");
      list(b, m.getPolygons(), (out, p) -> rings(out, p.getLineStrings()));
    } else if (g instanceof GeometryCollection c) {
      b.append("GEOMETRYCOLLECTION");
      list(b, c.getGeometries(), GeometryText::tagged);
    } else {
      b.append(g.getClass().getSimpleName().toUpperCase(java.util.Locale.ROOT));
    }
  }

  private static void rings(StringBuilder b, List<LineString> lines) {
    list(b, lines, (out, l) -> points(out, l.getPoints()));
  }

  private static void points(StringBuilder b, List<Point> points) {
    list(b, points, GeometryText::point);
  }

  private static <T> void list(StringBuilder b, List<T> items, BiConsumer<StringBuilder, T> each) {
    if (items == null || items.isEmpty()) {
      b.append(" EMPTY");
      return;
    }
    b.append('(');
    for (int i = 0; i < items.size(); i++) {
      if (i > 0) {
        b.append(',');
      }
      each.accept(b, items.get(i));
    }
    b.append(')');
  }

  private static void point(StringBuilder b, Point p) {
    b.append(number(p.getX())).append(' ').append(number(p.getY()));
  }

  private static String number(double d) {
    return ValueFormat.shortest(d);
  }
}
