package dev.sluice.engine.mysql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.mysqlclient.data.spatial.GeometryCollection;
import io.vertx.mysqlclient.data.spatial.LineString;
import io.vertx.mysqlclient.data.spatial.MultiPoint;
import io.vertx.mysqlclient.data.spatial.MultiPolygon;
import io.vertx.mysqlclient.data.spatial.Point;
import io.vertx.mysqlclient.data.spatial.Polygon;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Spatial values as the text ST_AsText gives (the server side is in MySqlExecutorTest). */
class GeometryTextTest {

  private static Point p(double x, double y) {
    return new Point(0, x, y);
  }

  @Test
  void everyKindReadsAsWellKnownText() {
    assertEquals("POINT(1 2.5)", GeometryText.of(p(1, 2.5)));
    assertEquals("SRID=4326;POINT(-0.1275 51.5072)", GeometryText.of(new Point(4326, -0.1275, 51.5072)));
    LineString ring = new LineString(0, List.of(p(0, 0), p(1, 0), p(1, 1), p(0, 0)));
    assertEquals("LINESTRING(0 0,1 0,1 1,0 0)", GeometryText.of(ring));
    Polygon square = new Polygon(0, List.of(ring));
    assertEquals("POLYGON((0 0,1 0,1 1,0 0))", GeometryText.of(square));
    assertEquals("MULTIPOINT((1 2),(3 4))", GeometryText.of(new MultiPoint(0, List.of(p(1, 2), p(3, 4)))));
    assertEquals("MULTIPOLYGON(((0 0,1 0,1 1,0 0)))", GeometryText.of(new MultiPolygon(0, List.of(square))));
    assertEquals("GEOMETRYCOLLECTION(POINT(1 2),LINESTRING(0 0,1 0,1 1,0 0))",
        GeometryText.of(new GeometryCollection(0, List.of(p(1, 2), ring))));
    assertEquals("GEOMETRYCOLLECTION EMPTY", GeometryText.of(new GeometryCollection(0, List.of())));
  }
}
