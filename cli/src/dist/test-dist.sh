#!/usr/bin/env bash
# Unpacks target/kubesched-<version>-linux-x64.tar.gz in a scratch directory and runs the command
# from it with its own runtime (no JDK on the PATH): `simulate` on the quickstart cluster, and
# `plugins` with a plugin jar dropped into plugins/. Fails on any difference.
set -euo pipefail
version="$1"
target="$2"
repo="$(cd "$target/../.." && pwd)"
scratch="$target/dist-test"
rm -rf "$scratch"
mkdir -p "$scratch"
tar -C "$scratch" -xzf "$target/kubesched-$version-linux-x64.tar.gz"
home="$scratch/kubesched-$version"
fail() { echo "dist test: $*" >&2; exit 1; }

out="$(env -i PATH=/usr/bin:/bin HOME="$scratch" "$home/bin/kubesched" simulate \
  "$repo/examples/clusters/quickstart.yaml")" || fail "simulate exited with $?"
grep -q '^[0-9]* pods: .* scheduled' <<<"$out" || fail "no summary line in: $out"
expected="$(java -jar "$target/kubesched.jar" simulate "$repo/examples/clusters/quickstart.yaml")"
[ "$out" = "$expected" ] || fail "simulate differs from the jar's own output"

# A plugin jar dropped into plugins/ is loaded: compile a one-class Filter plugin against the jar.
src="$scratch/plugin-src"
mkdir -p "$src/acme" "$src/META-INF/services"
cat >"$src/acme/DistCheck.java" <<'JAVA'
package acme;

import io.kubesched.framework.*;

public final class DistCheck implements FilterPlugin, PluginProvider<NoArgs> {
  public String name() { return "DistCheck"; }
  public Status filter(CycleState s, PodInfo p, NodeInfo n) { return Status.success(); }
  public Class<NoArgs> argsType() { return NoArgs.class; }
  public NoArgs defaultArgs() { return NoArgs.INSTANCE; }
  public Class<? extends Plugin> pluginType() { return DistCheck.class; }
  public Plugin create(NoArgs a, FrameworkHandle h) { return new DistCheck(); }
}
JAVA
echo acme.DistCheck >"$src/META-INF/services/io.kubesched.framework.PluginProvider"
javac --release 17 -proc:none -cp "$target/kubesched.jar" -d "$src" "$src/acme/DistCheck.java"
(cd "$src" && jar cf "$home/plugins/dist-check.jar" acme/DistCheck.class META-INF)
row="$(env -i PATH=/usr/bin:/bin "$home/bin/kubesched" plugins | grep '^DistCheck ')" \
  || fail "the plugin jar in plugins/ is not listed"
grep -q "$home/plugins/dist-check.jar\$" <<<"$row" || fail "wrong source: $row"
echo "dist test: ok ($home)"
