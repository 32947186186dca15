package io.kubesched.cli;

import io.kubesched.framework.FeatureGates;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * kube's {@code --feature-gates} option, shared by {@code simulate}, {@code run} and {@code
 * extender}: comma-separated {@code Name=bool} pairs, repeatable, parsed as component-base parses
 * them ({@link FeatureGates#parse(String)}). The help lists every gate with its stage and default
 * ({@code FeatureGatesOptionTest} keeps the list in sync with {@link FeatureGates#known()}).
 */
final class FeatureGatesOption {
  @Option(
      names = "--feature-gates",
      paramLabel = "NAME=BOOL[,...]",
      description = {
        "A set of key=value pairs that describe feature gates for alpha/experimental features"
            + " (kube v1.33's gates that the scheduler reads, plus OpportunisticBatching);"
            + " repeatable. Unknown gates and locked gates set against their default are refused."
            + " Options are:",
        "  AllAlpha=true|false (ALPHA - default=false)",
        "  AllBeta=true|false (BETA - default=false)",
        "  CSIMigrationPortworx=true|false (GA - default=true, locked)",
        "  DRAAdminAccess=true|false (ALPHA - default=false)",
        "  DRADeviceTaints=true|false (ALPHA - default=false)",
        "  DRAPartitionableDevices=true|false (ALPHA - default=false)",
        "  DRAPrioritizedList=true|false (ALPHA - default=false)",
        "  DRAResourceClaimDeviceStatus=true|false (BETA - default=true)",
        "  DynamicResourceAllocation=true|false (BETA - default=false)",
        "  InPlacePodVerticalScaling=true|false (BETA - default=true)",
        "  MatchLabelKeysInPodTopologySpread=true|false (BETA - default=true)",
        "  NodeInclusionPolicyInPodTopologySpread=true|false (GA - default=true, locked)",
        "  OpportunisticBatching=true|false (BETA - default=false)",
        "  PodLevelResources=true|false (ALPHA - default=false)",
        "  PodSchedulingReadiness=true|false (GA - default=true, locked)",
        "  SchedulerAsyncPreemption=true|false (BETA - default=true)",
        "  SchedulerPopFromBackoffQ=true|false (BETA - default=true)",
        "  SchedulerQueueingHints=true|false (BETA - default=true)",
        "  SidecarContainers=true|false (GA - default=true, locked)",
        "  StorageCapacityScoring=true|false (ALPHA - default=false)",
        "  VolumeAttributesClass=true|false (BETA - default=false)",
      })
  List<String> values = new ArrayList<>();

  /**
   * Returns the gates given, or {@code null} after printing kube's error on {@code err} ({@code
   * invalid argument "Foo=true" for "--feature-gates" flag: unrecognized feature gate: Foo}).
   */
  FeatureGates parse(PrintWriter err) {
    String joined = String.join(",", values);
    try {
      return FeatureGates.parse(joined);
    } catch (IllegalArgumentException e) {
      err.println(
          "invalid argument \"" + joined + "\" for \"--feature-gates\" flag: " + e.getMessage());
      err.flush();
      return null;
    }
  }
}
