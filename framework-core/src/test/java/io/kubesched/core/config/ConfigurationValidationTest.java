package io.kubesched.core.config;

import static io.kubesched.core.config.ConfigTestPlugins.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Validation and strict decoding, after kube's {@code TestValidateKubeSchedulerConfigurationV1}:
 * each case lists every error the configuration must produce, in order, as printed.
 */
final class ConfigurationValidationTest {
  private static final String AVAILABLE =
      "CustomBinder, CustomFilter, CustomScore, DefaultBinder, DefaultPreemption, ImageLocality,"
          + " InterPodAffinity, NodeAffinity, NodeName, NodePorts, NodeResourcesBalancedAllocation,"
          + " NodeResourcesFit, NodeUnschedulable, NodeVolumeLimits, OtherSort, PodTopologySpread,"
          + " PrioritySort, SchedulingGates, TaintToleration, VolumeBinding, VolumeRestrictions,"
          + " VolumeZone";

  static Stream<Arguments> cases() {
    return Stream.of(
        argumentSet(
            "parallelism must be positive",
            "parallelism: 0\n",
            List.of("parallelism: Invalid value: 0: should be an integer value greater than zero")),
        argumentSet(
            "global percentageOfNodesToScore above 100",
            "percentageOfNodesToScore: 110\n",
            List.of("percentageOfNodesToScore: Invalid value: 110: not in valid range [0-100]")),
        argumentSet(
            "profile percentageOfNodesToScore below 0",
            "profiles:\n- percentageOfNodesToScore: -1\n",
            List.of(
                "profiles[0].percentageOfNodesToScore: Invalid value: -1: not in valid range"
                    + " [0-100]")),
        argumentSet(
            "initial backoff must be positive",
            "podInitialBackoffSeconds: 0\n",
            List.of("podInitialBackoffSeconds: Invalid value: 0: must be greater than 0")),
        argumentSet(
            "max backoff below initial backoff",
            "podInitialBackoffSeconds: 5\npodMaxBackoffSeconds: 3\n",
            List.of(
                "podMaxBackoffSeconds: Invalid value: 3: must be greater than or equal to"
                    + " PodInitialBackoffSeconds")),
        argumentSet(
            "several unnamed profiles need names and collide",
            "profiles:\n- percentageOfNodesToScore: 1\n- percentageOfNodesToScore: 2\n",
            List.of(
                "profiles[0].schedulerName: Required value",
                "profiles[1].schedulerName: Required value",
                "profiles[1].schedulerName: Duplicate value: profiles[0].schedulerName")),
        argumentSet(
            "an explicitly empty name of a single profile is not defaulted",
            "profiles:\n- schedulerName: \"\"\n",
            List.of("profiles[0].schedulerName: Required value")),
        argumentSet(
            "duplicate scheduler names",
            "profiles:\n- schedulerName: foo\n- schedulerName: bar\n- schedulerName: foo\n"
                + "- schedulerName: foo\n",
            List.of(
                "profiles[2].schedulerName: Duplicate value: profiles[0].schedulerName",
                "profiles[3].schedulerName: Duplicate value: profiles[2].schedulerName")),
        argumentSet(
            "profiles must use the same queue sort plugin",
            """
            profiles:
            - schedulerName: a
            - schedulerName: b
              plugins:
                queueSort:
                  enabled:
                  - name: OtherSort
                  disabled:
                  - name: "*"
            """,
            List.of(
                "profiles[1].plugins.queueSort: Invalid value: {enabled: [OtherSort], disabled:"
                    + " [*]}: must be the same for all profiles")),
        argumentSet(
            "only one queue sort plugin",
            """
            profiles:
            - plugins:
                queueSort:
                  enabled:
                  - name: OtherSort
                  - name: PrioritySort
            """,
            List.of(
                "profiles[0].plugins.queueSort.Enabled: Invalid value: 2: only one queue sort"
                    + " plugin can be enabled")),
        argumentSet(
            "queue sort args must be the same for all profiles",
            """
            profiles:
            - schedulerName: a
              plugins:
                queueSort:
                  enabled:
                  - name: CustomScore
              pluginConfig:
              - name: CustomScore
                args:
                  limit: 1
            - schedulerName: b
              plugins:
                queueSort:
                  enabled:
                  - name: CustomScore
              pluginConfig:
              - name: CustomScore
                args:
                  limit: 2
            """,
            List.of(
                "profiles[1].pluginConfig.args: Invalid value: CustomArgs[timeout=PT30S,"
                    + " weights={a=1}, mode=fast, limit=2, tags=[x]]: queueSort must be the same"
                    + " for all profiles")),
        argumentSet(
            "duplicate pluginConfig",
            """
            profiles:
            - pluginConfig:
              - name: NodeResourcesFit
              - name: NodeResourcesFit
            """,
            List.of("profiles[0].pluginConfig[1]: Duplicate value: \"NodeResourcesFit\"")),
        argumentSet(
            "plugins removed from v1",
            """
            profiles:
            - plugins:
                filter:
                  enabled:
                  - name: CustomFilter
                  - name: EBSLimits
              pluginConfig:
              - name: GCEPDLimits
            """,
            List.of(
                "profiles[0].plugins.filter.enabled[1]: Invalid value: \"EBSLimits\": was invalid"
                    + " in version \"kubescheduler.config.k8s.io/v1\" (KubeSchedulerConfiguration"
                    + " is version \"kubescheduler.config.k8s.io/v1\")",
                "profiles[0].pluginConfig[0]: Invalid value: \"GCEPDLimits\": was invalid in"
                    + " version \"kubescheduler.config.k8s.io/v1\" (KubeSchedulerConfiguration is"
                    + " version \"kubescheduler.config.k8s.io/v1\")")),
        argumentSet(
            "enabled plugins must be registered; the error lists the available ones",
            """
            profiles:
            - plugins:
                multiPoint:
                  enabled:
                  - name: Nope
                score:
                  enabled:
                  - name: CustomScore
                  - name: AlsoNope
                  disabled:
                  - name: NotRegisteredButOnlyDisabled
            """,
            List.of(
                "profiles[0].plugins.score.enabled[1]: Invalid value: \"AlsoNope\": plugin is not"
                    + " registered; available plugins: "
                    + AVAILABLE,
                "profiles[0].plugins.multiPoint.enabled[0]: Invalid value: \"Nope\": plugin is"
                    + " not registered; available plugins: "
                    + AVAILABLE)),
        argumentSet(
            "extender with prioritizeVerb needs a positive weight",
            "extenders:\n- urlPrefix: http://a\n  prioritizeVerb: prioritize\n",
            List.of(
                "extenders[0].weight: Invalid value: 0: must have a positive weight applied to"
                    + " it")),
        argumentSet(
            "at most one extender binds",
            """
            extenders:
            - urlPrefix: http://a
              bindVerb: bind
            - urlPrefix: http://b
              bindVerb: bind
            """,
            List.of(
                "extenders: Invalid value: \"found 2 extenders implementing bind\": only one"
                    + " extender can implement bind")),
        argumentSet(
            "extender managed resources must be unique extended resource names",
            """
            extenders:
            - urlPrefix: http://a
              managedResources:
              - name: foo
              - name: example.com/a/b
              - name: example.com/gpu
            - urlPrefix: http://b
              managedResources:
              - name: example.com/gpu
            """,
            List.of(
                "extenders[0].managedResources[0].name: Invalid value: \"foo\": is an invalid"
                    + " extended resource name",
                "extenders[0].managedResources[1].name: Invalid value: example.com/a/b: a"
                    + " qualified name must consist of alphanumeric characters, '-', '_' or '.',"
                    + " and must start and end with an alphanumeric character (e.g. 'MyName',  or"
                    + " 'my.name',  or '123-abc', regex used for validation is"
                    + " '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS"
                    + " subdomain prefix and '/' (e.g. 'example.com/MyName')",
                "extenders[1].managedResources[0].name: Invalid value: \"example.com/gpu\":"
                    + " duplicate extender managed resource name")),
        argumentSet(
            "leader election rules apply when leader election is on",
            """
            leaderElection:
              leaseDuration: 5s
              renewDeadline: 10s
              resourceLock: endpoints
            """,
            List.of(
                "leaderElection.leaseDuration: Invalid value: 10s: LeaseDuration must be greater"
                    + " than RenewDeadline",
                "leaderElection.resourceLock: Invalid value: \"endpoints\": resourceLock value"
                    + " must be \"leases\"")),
        argumentSet(
            "leader election rules are skipped when leader election is off",
            "leaderElection:\n  leaderElect: false\n  resourceLock: endpoints\n",
            List.of()),
        argumentSet(
            "burst must not be negative",
            "clientConnection:\n  burst: -1\n",
            List.of("clientConnection.burst: Invalid value: -1: must be non-negative")),
        argumentSet(
            "args validation errors carry the full path",
            """
            profiles:
            - pluginConfig:
              - name: DefaultPreemption
              - name: NodeResourcesFit
                args:
                  scoringStrategy:
                    resources:
                    - name: cpu
                      weight: 0
                  ignoredResourceGroups: [example.com/foo]
            """,
            List.of(
                "profiles[0].pluginConfig[1].args.scoringStrategy.resources[0].weight: Invalid"
                    + " value: 0: resource weight of cpu not in valid range (0, 100]",
                "profiles[0].pluginConfig[1].args.ignoredResourceGroups[0]: Invalid value:"
                    + " \"example.com/foo\": resource group name can't contain '/'")),
        argumentSet(
            "unsupported enum value in args",
            """
            profiles:
            - pluginConfig:
              - name: NodeResourcesFit
                args:
                  scoringStrategy:
                    type: Foo
            """,
            List.of(
                "profiles[0].pluginConfig[0].args.scoringStrategy.type: Unsupported value:"
                    + " \"Foo\": supported values: \"LeastAllocated\", \"MostAllocated\","
                    + " \"RequestedToCapacityRatio\"")),
        argumentSet(
            "unknown fields in args are errors, all of them",
            """
            profiles:
            - pluginConfig:
              - name: NodeResourcesFit
                args:
                  scoringStrategy:
                    foo: 1
                  bar: true
            """,
            List.of(
                "profiles[0].pluginConfig[0].args.bar: unknown field",
                "profiles[0].pluginConfig[0].args.scoringStrategy.foo: unknown field")),
        argumentSet(
            "unknown fields inside client-java models in args",
            """
            profiles:
            - pluginConfig:
              - name: NodeAffinity
                args:
                  addedAffinity:
                    requiredDuringSchedulingIgnoredDuringExecution:
                      nodeSelectorTerms:
                      - matchExpressions:
                        - key: zone
                          operater: In
            """,
            List.of(
                "profiles[0].pluginConfig[0].args.addedAffinity"
                    + ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
                    + ".matchExpressions[0].operater: unknown field")),
        argumentSet(
            "args of a plugin without args",
            "profiles:\n- pluginConfig:\n  - name: NodePorts\n    args:\n      foo: 1\n",
            List.of("profiles[0].pluginConfig[0].args.foo: unknown field")),
        argumentSet(
            "args kind and apiVersion are checked",
            """
            profiles:
            - pluginConfig:
              - name: InterPodAffinity
                args:
                  apiVersion: kubescheduler.config.k8s.io/v1beta3
                  kind: NodeResourcesFitArgs
            """,
            List.of(
                "profiles[0].pluginConfig[0].args.kind: Invalid value: \"NodeResourcesFitArgs\":"
                    + " must be \"InterPodAffinityArgs\"",
                "profiles[0].pluginConfig[0].args.apiVersion: Invalid value:"
                    + " \"kubescheduler.config.k8s.io/v1beta3\": must be"
                    + " \"kubescheduler.config.k8s.io/v1\"")),
        argumentSet(
            "bad scalar types in args",
            """
            profiles:
            - pluginConfig:
              - name: CustomScore
                args:
                  timeout: 10
                  limit: many
                  weights:
                    a: 1.5
                  tags: x
            """,
            List.of(
                "profiles[0].pluginConfig[0].args.timeout: Invalid value: 10: expected a duration"
                    + " string such as \"10s\"",
                "profiles[0].pluginConfig[0].args.weights[a]: Invalid value: 1.5: expected an"
                    + " integer",
                "profiles[0].pluginConfig[0].args.limit: Invalid value: \"many\": expected an"
                    + " integer",
                "profiles[0].pluginConfig[0].args.tags: Invalid value: \"x\": expected a list")),
        argumentSet(
            "bad duration unit in args",
            "profiles:\n- pluginConfig:\n  - name: CustomScore\n    args:\n      timeout: 10x\n",
            List.of(
                "profiles[0].pluginConfig[0].args.timeout: Invalid value: \"10x\": unknown unit"
                    + " \"x\" in duration \"10x\"")),
        argumentSet(
            "ignored managed resources need NodeResourcesFit args in every profile",
            """
            extenders:
            - urlPrefix: http://a
              managedResources:
              - name: example.com/foo
                ignoredByScheduler: true
            profiles:
            - schedulerName: a
            - schedulerName: b
              plugins:
                multiPoint:
                  disabled:
                  - name: NodeResourcesFit
            """,
            List.of("profiles[1].pluginConfig: can't find NodeResourcesFitArgs in plugin config")),
        argumentSet(
            "unknown configuration fields, at any depth",
            """
            parallelizm: 4
            profiles:
            - plugins:
                filter:
                  enabled:
                  - name: CustomFilter
                    wieght: 2
            """,
            List.of(
                "parallelizm: unknown field",
                "profiles[0].plugins.filter.enabled[0].wieght: unknown field")),
        argumentSet(
            "wrong scalar type in the configuration",
            "parallelism: abc\nenableProfiling: \"yes\"\n",
            List.of(
                "parallelism: Invalid value: \"abc\": expected an integer",
                "enableProfiling: Invalid value: \"yes\": expected a boolean")),
        argumentSet(
            "every problem is reported at once",
            """
            parallelism: -1
            percentageOfNodesToScore: 200
            profiles:
            - schedulerName: ""
            extenders:
            - urlPrefix: http://a
              prioritizeVerb: p
            """,
            List.of(
                "parallelism: Invalid value: -1: should be an integer value greater than zero",
                "profiles[0].schedulerName: Required value",
                "percentageOfNodesToScore: Invalid value: 200: not in valid range [0-100]",
                "extenders[0].weight: Invalid value: 0: must have a positive weight applied to"
                    + " it")));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void validate(String body, List<String> want) {
    List<String> got = errors(yaml(body));
    assertThat(got).isEqualTo(want);
  }

  static Stream<Arguments> typeMetaCases() {
    return Stream.of(
        argumentSet(
            "apiVersion and kind are required",
            "parallelism: 1\n",
            List.of(
                "apiVersion: Required value: must be \"kubescheduler.config.k8s.io/v1\"",
                "kind: Required value: must be \"KubeSchedulerConfiguration\"")),
        argumentSet(
            "older versions are not accepted",
            "apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n",
            List.of(
                "apiVersion: Invalid value: \"kubescheduler.config.k8s.io/v1beta3\": must be"
                    + " \"kubescheduler.config.k8s.io/v1\"")),
        argumentSet(
            "a document that is not a mapping",
            "- a\n- b\n",
            List.of("<input>: Invalid value: [\"a\", \"b\"]: expected a mapping")));
  }

  @ParameterizedTest
  @MethodSource("typeMetaCases")
  void typeMeta(String text, List<String> want) {
    assertThat(errors(text)).isEqualTo(want);
  }

  private static List<String> errors(String text) {
    InvalidConfigurationException e =
        catchThrowableOfType(
            InvalidConfigurationException.class,
            () -> ConfigurationLoader.parse(text, ConfigTestPlugins.registry()));
    return e == null ? List.of() : e.errors().stream().map(Object::toString).toList();
  }
}
