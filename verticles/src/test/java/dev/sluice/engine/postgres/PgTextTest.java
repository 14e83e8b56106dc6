package dev.sluice.engine.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.pgclient.data.Path;
import io.vertx.pgclient.data.Point;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the server comparison in PgTypeFormatTest cannot reach: paths (the analysis does not read
 * the type name {@code path}) and IPv6 forms beyond its sample.
 */
class PgTextTest {

  @Test
  void openAndClosedPaths() {
    List<Point> points = List.of(new Point(0, 0), new Point(1, 1.5));
    assertEquals("[(0,0),(1,1.5)]", PgText.format(new Path(true, points)));
    assertEquals("((0,0),(1,1.5))", PgText.format(new Path(false, points)));
  }

  @Test
  void ipv6AsPostgresPrintsIt() throws Exception {
    assertEquals("2a00:1450::1", PgText.ipv6(InetAddress.getByName("2a00:1450:0:0:0:0:0:1").getAddress()));
    assertEquals("2a00:1450:0:1::", PgText.ipv6(InetAddress.getByName("2a00:1450:0:1:0:0:0:0").getAddress()));
    assertEquals("2a00:0:2::3", PgText.ipv6(InetAddress.getByName("2a00:0:2:0:0:0:0:3").getAddress()));
    byte[] onlyFirstGroup = new byte[16];
    onlyFirstGroup[0] = 0x2a;
    assertEquals("2a00::", PgText.ipv6(onlyFirstGroup));
  }
}
