package dev.sluice.console;

import dev.sluice.access.Principals;
import dev.sluice.audit.AuditRecords;
import dev.sluice.audit.AuditTrail;
import dev.sluice.http.TransportRules;
import io.vertx.core.Handler;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * The first handler of every /console request: the same Host (421) and Origin (403) rules as /mcp,
 * then, for the admin API, a bearer token (401) of an operator principal (403). The page and its
 * assets hold no data, so a browser may load them without a token (a navigation cannot send one);
 * a token that is sent must still be an operator's. The token travels in the Authorization header,
 * never a cookie, so another site's page has nothing to replay.
 */
final class ConsoleGuard implements Handler<RoutingContext> {

  /** Where the guard leaves the operator's name for the API handlers. */
  static final String OPERATOR = "sluice.console.operator";

  private final TransportRules rules;
  private final Principals principals;
  private final AuditTrail audit;
  private final String nodeId;

  ConsoleGuard(TransportRules rules, Principals principals, AuditTrail audit, String nodeId) {
    this.rules = rules;
    this.principals = principals;
    this.audit = audit;
    this.nodeId = nodeId;
  }

  @Override
  public void handle(RoutingContext ctx) {
    TransportRules.Rejection r = rules.host(ctx.request());
    if (r == null) {
      r = rules.origin(ctx.request());
    }
    boolean api = ctx.request().path().startsWith("/console/api/");
    if (r == null && (api || ctx.request().getHeader("Authorization") != null)) {
      r = rules.token(ctx.request());
      if (r == null) {
        String principal = rules.principal(ctx.request());
        if (!principals.isOperator(principal)) {
          r = new TransportRules.Rejection(403, "Forbidden: principal '" + principal + "' is not an operator "
              + "(give it operator: true in principals)");
        } else {
          ctx.put(OPERATOR, principal);
        }
      }
    }
    if (r != null) {
      refuse(ctx, r);
      return;
    }
    ctx.response().putHeader("Cache-Control", "no-store").putHeader("X-Content-Type-Options", "nosniff")
        // the page is never framed (clickjacking of the cancel button) and loads nothing from elsewhere
        .putHeader("X-Frame-Options", "DENY")
        .putHeader("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'; base-uri 'none'");
    ctx.next();
  }

  private void refuse(RoutingContext ctx, TransportRules.Rejection r) {
    if (r.status() == 401) {
      ctx.response().putHeader("WWW-Authenticate", "Bearer");
    }
    if (r.status() == 401 || r.status() == 403) {
      audit.record(AuditRecords.refused(nodeId, ctx.request().method().name(), ctx.request().path(),
          String.valueOf(ctx.request().remoteAddress()), r.status(), r.message()));
    }
    ctx.response().setStatusCode(r.status()).putHeader("Content-Type", "application/json")
        .end(new JsonObject().put("error", new JsonObject().put("status", r.status()).put("message", r.message()))
            .encode());
  }
}
