package dev.sluice.setup;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Runs setup-agents over the chosen clients: add (or replace) our entries and guides, or remove them. */
public final class AgentSetup {

  private final Path home;
  private final AgentClients clients;
  private final boolean dryRun;

  public AgentSetup(Path home, Map<String, String> env, String osName, boolean dryRun) {
    this.home = home;
    this.clients = new AgentClients(home, env, osName);
    this.dryRun = dryRun;
  }

  public List<String> add(List<String> targets, boolean project, Path projectDir, GatewayAddress gw,
      List<String> stdioCommand, String guide) throws IOException {
    SetupManifest manifest = SetupManifest.load(home);
    EntryEditor editor = new EntryEditor(manifest, dryRun);
    List<String> lines = new ArrayList<>();
    boolean all = targets.contains("all");
    for (String client : chosen(targets)) {
      if (AgentClients.PRINTED.contains(client)) {
        lines.add(clients.printed(client, gw));
        continue;
      }
      ClientEntry e = clients.entry(client, project, projectDir, gw, stdioCommand);
      if (e == null) {
        if (!all) {
          lines.add(client + ": no " + (project ? "project" : "user") + " configuration; use --scope "
              + (project ? "user" : "project"));
        }
        continue;
      }
      if (all && !clients.present(client, project, projectDir)) {
        lines.add(client + ": not found (" + e.file().getParent() + " does not exist); --target " + client
            + " writes it anyway");
        continue;
      }
      lines.add(editor.add(e));
      Path g = clients.guide(client, project, projectDir);
      if (g != null) {
        lines.add(editor.writeGuide(g, guide));
      }
    }
    if (!dryRun) {
      manifest.save();
    }
    return lines;
  }

  /** Removes our entries (restoring one we replaced) and guides from every chosen client that has them. */
  public List<String> remove(List<String> targets, boolean project, Path projectDir) throws IOException {
    SetupManifest manifest = SetupManifest.load(home);
    EntryEditor editor = new EntryEditor(manifest, dryRun);
    List<String> lines = new ArrayList<>();
    for (String client : chosen(targets)) {
      if (AgentClients.PRINTED.contains(client)) {
        continue;
      }
      ClientEntry e = clients.entry(client, project, projectDir, new GatewayAddress("", false), List.of("java"));
      if (e != null) {
        addIfAny(lines, editor.remove(e));
      }
      Path g = clients.guide(client, project, projectDir);
      if (g != null) {
        addIfAny(lines, editor.removeGuide(g, null));
      }
    }
    if (!dryRun) {
      manifest.save();
    }
    if (lines.isEmpty()) {
      lines.add("nothing to remove");
    }
    return lines;
  }

  private static void addIfAny(List<String> lines, String line) {
    if (line != null) {
      lines.add(line);
    }
  }

  private static Set<String> chosen(List<String> targets) {
    Set<String> out = new LinkedHashSet<>();
    for (String t : targets) {
      out.addAll(t.equals("all") ? AgentClients.all() : List.of(t));
    }
    return out;
  }
}
