#!/usr/bin/env bash
# Builds target/kubesched-<version>-linux-x64.tar.gz from target/kubesched.jar: a jlink runtime
# (no JDK needed to run it), the launcher bin/kubesched, lib/kubesched.jar and an empty plugins/.
# Run by `mvn -B -ntp -Pdist -pl cli -am package` (the dist profile of cli/pom.xml).
set -euo pipefail
version="$1"
target="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
name="kubesched-$version"
stage="$target/dist/$name"
# The modules the command needs (jdeps --print-module-deps over kubesched.jar), plus jdk.crypto.ec
# for TLS with EC keys (API servers, extenders) and jdk.zipfs for plugin jars read as file systems.
modules="java.base,java.desktop,java.naming,java.net.http,java.sql,jdk.httpserver,jdk.management"
modules="$modules,jdk.unsupported,jdk.crypto.ec,jdk.zipfs"
rm -rf "$target/dist"
mkdir -p "$stage/bin" "$stage/lib" "$stage/plugins"
jlink --add-modules "$modules" --output "$stage/runtime" --strip-debug --no-header-files \
  --no-man-pages --compress=2
cp "$target/kubesched.jar" "$stage/lib/kubesched.jar"
cp "$here/kubesched" "$stage/bin/kubesched"
chmod 755 "$stage/bin/kubesched"
cp "$here/plugins-README.txt" "$stage/plugins/README.txt"
tar -C "$target/dist" -czf "$target/$name-linux-x64.tar.gz" "$name"
echo "built $target/$name-linux-x64.tar.gz"
