package dev.sluice.testing;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway public-key infrastructure made with the {@code openssl} command line: a CA, a server
 * certificate for {@code 127.0.0.1} only (so connecting as {@code localhost} is a host-name
 * mismatch), a client certificate for {@link #CLIENT_USER}, and an unrelated second CA.
 */
public final class TestCertificates {

  /** The common name of the client certificate, which certificate authentication maps to a user. */
  public static final String CLIENT_USER = "certuser";

  public final Path dir;

  private TestCertificates(Path dir) {
    this.dir = dir;
  }

  /** Writes every file into {@code dir}; keys are unencrypted PKCS#8 PEM. */
  public static TestCertificates create(Path dir) throws Exception {
    Files.createDirectories(dir);
    TestCertificates c = new TestCertificates(dir);
    c.ca("ca", "Sluice Test CA");
    c.ca("wrong-ca", "Some Other CA");
    c.signed("server", "127.0.0.1", "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
    c.signed("client", CLIENT_USER, "extendedKeyUsage=clientAuth\n");
    return c;
  }

  public Path ca() {
    return dir.resolve("ca.crt");
  }

  public Path wrongCa() {
    return dir.resolve("wrong-ca.crt");
  }

  public Path serverCert() {
    return dir.resolve("server.crt");
  }

  public Path serverKey() {
    return dir.resolve("server.key");
  }

  public Path clientCert() {
    return dir.resolve("client.crt");
  }

  public Path clientKey() {
    return dir.resolve("client.key");
  }

  private void ca(String name, String cn) throws Exception {
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=" + cn,
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        "-keyout", name + ".key", "-out", name + ".crt");
  }

  private void signed(String name, String cn, String extensions) throws Exception {
    Files.writeString(dir.resolve(name + ".ext"), extensions, StandardCharsets.UTF_8);
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=" + cn, "-keyout", name + ".key",
        "-out", name + ".csr");
    openssl("x509", "-req", "-in", name + ".csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
        "-days", "2", "-extfile", name + ".ext", "-out", name + ".crt");
  }

  private void openssl(String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add("openssl");
    cmd.addAll(List.of(args));
    Path log = dir.resolve("openssl.log");
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IllegalStateException("openssl " + String.join(" ", args) + " failed:\n" + Files.readString(log));
    }
  }
}
