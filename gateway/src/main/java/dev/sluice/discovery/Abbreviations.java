package dev.sluice.discovery;

import java.util.Map;

/**
 * Short forms common in database identifiers, spelled out for the dense lane: the model has never
 * seen "qty" or "dob" used as words, but knows "quantity" and "date of birth". A general list of
 * schema naming habits (dates, amounts, ids, counts, common business and clinical shorthand), not
 * any one catalog's names. Only identifiers are expanded; comments are read as written.
 */
final class Abbreviations {

  static final Map<String, String> WORDS = Map.ofEntries(
      Map.entry("acct", "account"), Map.entry("addr", "address"), Map.entry("amt", "amount"),
      Map.entry("appt", "appointment"), Map.entry("approx", "approximate"), Map.entry("attr", "attribute"),
      Map.entry("avg", "average"), Map.entry("bal", "balance"), Map.entry("cat", "category"),
      Map.entry("ccy", "currency"), Map.entry("cnt", "count"), Map.entry("cust", "customer"),
      Map.entry("desc", "description"), Map.entry("dept", "department"), Map.entry("dob", "date of birth"),
      Map.entry("dt", "date"), Map.entry("dx", "diagnosis"), Map.entry("emp", "employee"),
      Map.entry("fk", "foreign key"), Map.entry("fx", "exchange rate"), Map.entry("gl", "general ledger"),
      Map.entry("hr", "human resources"), Map.entry("inv", "invoice"),
      Map.entry("lat", "latitude"), Map.entry("lng", "longitude"), Map.entry("loc", "location"),
      Map.entry("mgr", "manager"), Map.entry("mins", "minutes"), Map.entry("msg", "message"),
      Map.entry("nm", "name"), Map.entry("no", "number"), Map.entry("num", "number"), Map.entry("nbr", "number"),
      Map.entry("ops", "operations"), Map.entry("org", "organisation"), Map.entry("pat", "patient"),
      Map.entry("pct", "percent"), Map.entry("pk", "primary key"), Map.entry("po", "purchase order"),
      Map.entry("pmt", "payment"), Map.entry("prod", "product"), Map.entry("qty", "quantity"),
      Map.entry("ref", "reference"), Map.entry("reg", "registration"), Map.entry("rx", "prescription"),
      Map.entry("sku", "stock keeping unit"), Map.entry("sqm", "square metres"), Map.entry("m3", "cubic metres"),
      Map.entry("ts", "timestamp"), Map.entry("txn", "transaction"), Map.entry("tx", "transaction"),
      Map.entry("usr", "user"), Map.entry("wh", "warehouse"), Map.entry("yr", "year"), Map.entry("yoy", "year over year"),
      Map.entry("mrr", "monthly recurring revenue"), Map.entry("arr", "annual recurring revenue"),
      Map.entry("nps", "net promoter score"), Map.entry("sso", "single sign-on"),
      Map.entry("mfa", "multi-factor authentication"), Map.entry("kpi", "key performance indicator"),
      Map.entry("eta", "estimated arrival"), Map.entry("uom", "unit of measure"), Map.entry("vat", "value added tax"),
      Map.entry("ssn", "social security number"), Map.entry("tel", "telephone"), Map.entry("dc", "distribution centre"),
      Map.entry("fy", "fiscal year"), Map.entry("ytd", "year to date"),
      // 2026-11-29: schema habits of record-keeping systems (status, type and code columns,
      // header/line tables, work and maintenance records, schedules, inspections). Left out on
      // purpose: short forms with two common readings (rev: revenue or revision, doc: document
      // or doctor, pt: patient, part-time or point, cap, ind, std, sal)
      Map.entry("svc", "service"), Map.entry("hist", "history"), Map.entry("typ", "type"), Map.entry("cd", "code"),
      Map.entry("lvl", "level"), Map.entry("hdr", "header"), Map.entry("ln", "line"), Map.entry("dtl", "detail"),
      Map.entry("wo", "work order"), Map.entry("oh", "on hand"), Map.entry("sched", "schedule"),
      Map.entry("exc", "exception"), Map.entry("evt", "event"), Map.entry("req", "request"),
      Map.entry("maint", "maintenance"), Map.entry("alloc", "allocation"), Map.entry("insp", "inspection"),
      Map.entry("veh", "vehicle"), Map.entry("odo", "odometer"), Map.entry("stat", "status"), Map.entry("sts", "status"),
      Map.entry("qtr", "quarter"), Map.entry("mth", "month"), Map.entry("wk", "week"), Map.entry("hrs", "hours"),
      Map.entry("tot", "total"), Map.entry("ttl", "total"), Map.entry("grp", "group"),
      Map.entry("chg", "charge"), Map.entry("ord", "order"), Map.entry("shpt", "shipment"), Map.entry("rcpt", "receipt"),
      Map.entry("src", "source"), Map.entry("dest", "destination"), Map.entry("orig", "origin"),
      Map.entry("curr", "current"), Map.entry("prev", "previous"), Map.entry("seq", "sequence"),
      Map.entry("mfr", "manufacturer"), Map.entry("mfg", "manufacturing"), Map.entry("stk", "stock"),
      Map.entry("ctry", "country"), Map.entry("scrp", "scrap"), Map.entry("tkt", "ticket"), Map.entry("proj", "project"),
      Map.entry("enr", "enrolment"), Map.entry("crs", "course"), Map.entry("offr", "offering"));

  private Abbreviations() {}

  /** {@code words} (lower-case, space-separated identifier words) with known short forms spelled out. */
  static String expand(String words) {
    if (words.isEmpty()) {
      return words;
    }
    StringBuilder b = new StringBuilder(words.length() + 16);
    for (String w : words.split(" ")) {
      if (b.length() > 0) {
        b.append(' ');
      }
      b.append(WORDS.getOrDefault(w, w));
    }
    return b.toString();
  }
}
