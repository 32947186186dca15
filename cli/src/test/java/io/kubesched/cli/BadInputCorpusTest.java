package io.kubesched.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A corpus of inputs the API server refuses: each case is a file's content, the exact lines {@code
 * kubesched simulate} prints on standard error and its exit code. Every problem of a file is
 * reported at once, and no Java exception text appears.
 */
final class BadInputCorpusTest {
  private static final String NODE =
      """
      apiVersion: v1
      kind: Node
      metadata: {name: n1}
      status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
      ---
      """;
  private static final String DNS_SUBDOMAIN =
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or"
          + " '.', and must start and end with an alphanumeric character (e.g. 'example.com',"
          + " regex used for validation is"
          + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  private static final String DNS_LABEL =
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and"
          + " must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc',"
          + " regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
  private static final String QUANTITY_GRAMMAR =
      "quantities must match the regular expression"
          + " '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
  private static final String AFFINITY =
      "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
          + ".nodeSelectorTerms[0].matchExpressions";
  private static final String ANTI =
      "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]";

  @TempDir Path dir;

  static Stream<Arguments> corpus() {
    return Stream.of(
        Arguments.argumentSet(
            "names, namespaces and labels",
            NODE
                + """
                apiVersion: v1
                kind: Pod
                metadata: {name: Bad_Name, namespace: My-NS, labels: {tier: "not ok!"}}
                spec: {containers: [{name: c, image: i}]}
                ---
                apiVersion: v1
                kind: Namespace
                metadata: {name: a.b}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {namespace: default}
                spec: {containers: [{name: c, image: i}]}
                """,
            List.of(
                "in.yaml:6 (document 2): Pod My-NS/Bad_Name: metadata.name: Invalid value:"
                    + " \"Bad_Name\": "
                    + DNS_SUBDOMAIN,
                "in.yaml:6 (document 2): Pod My-NS/Bad_Name: metadata.namespace: Invalid value:"
                    + " \"My-NS\": "
                    + DNS_LABEL,
                "in.yaml:6 (document 2): Pod My-NS/Bad_Name: metadata.labels: Invalid value:"
                    + " \"not ok!\": a valid label must be an empty string or consist of"
                    + " alphanumeric characters, '-', '_' or '.', and must start and end with an"
                    + " alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex"
                    + " used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
                "in.yaml:11 (document 3): Namespace a.b: metadata.name: Invalid value: \"a.b\": "
                    + DNS_LABEL,
                "in.yaml:15 (document 4): Pod default/<unnamed>: metadata.name: Required value:"
                    + " name or generateName is required"),
            2),
        Arguments.argumentSet(
            "malformed quantities (once exit 1 with \"No suffix for exponent\")",
            NODE
                + """
                apiVersion: v1
                kind: Node
                metadata: {name: n2}
                status: {allocatable: {memory: 1e}}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: p}
                spec: {containers: [{name: c, image: i, resources: {requests: {memory: 1GB}}}]}
                """,
            List.of(
                "in.yaml:6 (document 2): Node n2: status.allocatable.memory: Invalid value: \"1e\":"
                    + " unable to parse quantity's suffix",
                "in.yaml:11 (document 3): Pod default/p:"
                    + " spec.containers[0].resources.requests.memory: Invalid value: \"1GB\": "
                    + QUANTITY_GRAMMAR),
            2),
        Arguments.argumentSet(
            "negative, fractional and unlimited quantities, taints",
            """
            apiVersion: v1
            kind: Node
            metadata: {name: n2}
            spec: {taints: [{key: a, effect: Sometimes}, {key: b, effect: NoSchedule}, {key: b, effect: NoSchedule}]}
            status: {allocatable: {cpu: "-4", pods: 1.5}}
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: p}
            spec:
              containers:
              - name: c
                image: i
                resources:
                  requests: {cpu: "2", nvidia.com/gpu: "1", memory: "-1Gi"}
                  limits: {cpu: "1"}
            """,
            List.of(
                "in.yaml:1 (document 1): Node n2: spec.taints[0].effect: Unsupported value:"
                    + " \"Sometimes\": supported values: \"NoSchedule\", \"PreferNoSchedule\","
                    + " \"NoExecute\"",
                "in.yaml:1 (document 1): Node n2: spec.taints[2]: Duplicate value: \"b:NoSchedule\":"
                    + " taints must be unique by key and effect pair",
                "in.yaml:1 (document 1): Node n2: status.allocatable.cpu: Invalid value: \"-4\":"
                    + " must be greater than or equal to 0",
                "in.yaml:1 (document 1): Node n2: status.allocatable.pods: Invalid value: 1500m:"
                    + " must be an integer",
                "in.yaml:7 (document 2): Pod default/p: spec.containers[0].resources.requests:"
                    + " Invalid value: \"2\": must be less than or equal to cpu limit of 1",
                "in.yaml:7 (document 2): Pod default/p: spec.containers[0].resources.limits:"
                    + " Required value: Limit must be set for non overcommitable resources",
                "in.yaml:7 (document 2): Pod default/p:"
                    + " spec.containers[0].resources.requests[memory]: Invalid value: \"-1Gi\": must"
                    + " be greater than or equal to 0"),
            2),
        Arguments.argumentSet(
            "selector and toleration operators, topology spread, empty containers",
            NODE
                + """
                apiVersion: v1
                kind: Pod
                metadata: {name: p}
                spec:
                  containers: []
                  tolerations:
                  - {key: k, operator: Equals, value: v, effect: NoScheduleX}
                  - {operator: Equal, value: v}
                  - {key: k, effect: NoSchedule, tolerationSeconds: 5}
                  affinity:
                    nodeAffinity:
                      requiredDuringSchedulingIgnoredDuringExecution:
                        nodeSelectorTerms:
                        - matchExpressions:
                          - {key: zone, operator: in, values: [a]}
                          - {key: zone, operator: In}
                          - {key: zone, operator: Exists, values: [a]}
                    podAntiAffinity:
                      preferredDuringSchedulingIgnoredDuringExecution:
                      - weight: 0
                        podAffinityTerm:
                          labelSelector: {matchExpressions: [{key: app, operator: Equals, values: [x]}]}
                          topologyKey: ""
                  topologySpreadConstraints:
                  - {maxSkew: 0, topologyKey: zone, whenUnsatisfiable: Maybe}
                  - {maxSkew: 1, topologyKey: "", whenUnsatisfiable: DoNotSchedule}
                """,
            List.of(
                "in.yaml:6 (document 2): Pod default/p: spec.containers: Required value",
                "in.yaml:6 (document 2): Pod default/p: spec.tolerations[0].operator: Unsupported"
                    + " value: \"Equals\": supported values: \"Equal\", \"Exists\"",
                "in.yaml:6 (document 2): Pod default/p: spec.tolerations[0].effect: Unsupported"
                    + " value: \"NoScheduleX\": supported values: \"NoSchedule\","
                    + " \"PreferNoSchedule\", \"NoExecute\"",
                "in.yaml:6 (document 2): Pod default/p: spec.tolerations[1].operator: Invalid"
                    + " value: \"Equal\": operator must be Exists when `key` is empty, which means"
                    + " \"match all values and all keys\"",
                "in.yaml:6 (document 2): Pod default/p: spec.tolerations[2].effect: Invalid value:"
                    + " \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set",
                "in.yaml:6 (document 2): Pod default/p: "
                    + AFFINITY
                    + "[0].operator: Invalid value: \"in\": not a valid selector operator",
                "in.yaml:6 (document 2): Pod default/p: "
                    + AFFINITY
                    + "[1].values: Required value: must be specified when `operator` is 'In' or"
                    + " 'NotIn'",
                "in.yaml:6 (document 2): Pod default/p: "
                    + AFFINITY
                    + "[2].values: Forbidden: may not be specified when `operator` is 'Exists' or"
                    + " 'DoesNotExist'",
                "in.yaml:6 (document 2): Pod default/p: "
                    + ANTI
                    + ".weight: Invalid value: 0: must be in the range 1-100",
                "in.yaml:6 (document 2): Pod default/p: "
                    + ANTI
                    + ".podAffinityTerm.labelSelector.matchExpressions[0].operator: Invalid value:"
                    + " \"Equals\": not a valid selector operator",
                "in.yaml:6 (document 2): Pod default/p: "
                    + ANTI
                    + ".podAffinityTerm.topologyKey: Required value: can not be empty",
                "in.yaml:6 (document 2): Pod default/p: spec.topologySpreadConstraints[0].maxSkew:"
                    + " Invalid value: 0: must be greater than zero",
                "in.yaml:6 (document 2): Pod default/p:"
                    + " spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value:"
                    + " \"Maybe\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\"",
                "in.yaml:6 (document 2): Pod default/p:"
                    + " spec.topologySpreadConstraints[1].topologyKey: Required value: can not be"
                    + " empty"),
            2),
        Arguments.argumentSet(
            "container images: required everywhere, trimmed in pods but not in templates",
            NODE
                + """
                apiVersion: v1
                kind: Pod
                metadata: {name: p}
                spec:
                  initContainers: [{name: init}]
                  containers: [{name: c, image: " nginx"}, {name: d, image: ""}]
                  ephemeralContainers: [{name: debug}]
                ---
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web}
                spec:
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec: {containers: [{name: c}, {name: d, image: "nginx "}]}
                """,
            List.of(
                "in.yaml:6 (document 2): Pod default/p: spec.containers[1].image: Required value",
                "in.yaml:6 (document 2): Pod default/p: spec.initContainers[0].image: Required"
                    + " value",
                "in.yaml:6 (document 2): Pod default/p: spec.ephemeralContainers[0].image:"
                    + " Required value",
                "in.yaml:6 (document 2): Pod default/p: spec.containers[0].image: Invalid value:"
                    + " \" nginx\": must not have leading or trailing whitespace",
                "in.yaml:14 (document 3): Deployment default/web:"
                    + " spec.template.spec.containers[0].image: Required value"),
            2),
        Arguments.argumentSet(
            "a document without apiVersion",
            NODE
                + """
                kind: Pod
                metadata: {name: p}
                spec: {containers: [{name: c, image: i}]}
                """,
            List.of("in.yaml:6 (document 2): Object 'apiVersion' is missing"),
            2),
        Arguments.argumentSet(
            "container and host ports",
            NODE
                + """
                apiVersion: v1
                kind: Pod
                metadata: {name: p}
                spec:
                  containers:
                  - name: c
                    image: i
                    ports: [{containerPort: 0}, {containerPort: 80, hostPort: 70000}, {containerPort: 81, protocol: HTTP}, {containerPort: 82, hostPort: 8080}]
                  - name: c
                    image: i
                    ports: [{containerPort: 83, hostPort: 8080}]
                """,
            List.of(
                "in.yaml:6 (document 2): Pod default/p: spec.containers[0].ports[0].containerPort:"
                    + " Invalid value: 0: must be between 1 and 65535, inclusive",
                "in.yaml:6 (document 2): Pod default/p: spec.containers[0].ports[1].hostPort:"
                    + " Invalid value: 70000: must be between 1 and 65535, inclusive",
                "in.yaml:6 (document 2): Pod default/p: spec.containers[0].ports[2].protocol:"
                    + " Unsupported value: \"HTTP\": supported values: \"SCTP\", \"TCP\", \"UDP\"",
                "in.yaml:6 (document 2): Pod default/p: spec.containers[1].name: Duplicate value:"
                    + " \"c\"",
                "in.yaml:6 (document 2): Pod default/p: spec.containers[1].ports[0].hostPort:"
                    + " Duplicate value: \"8080/TCP\""),
            2),
        Arguments.argumentSet(
            "wrong YAML types and PriorityClass values",
            NODE
                + """
                apiVersion: v1
                kind: Pod
                metadata: {name: p, labels: [a, b]}
                spec: {containers: [{name: c, image: i}]}
                ---
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: d}
                spec:
                  replicas: three
                  selector: {matchLabels: {app: d}}
                  template: {metadata: {labels: {app: d}}, spec: {containers: [{name: c, image: i}]}}
                ---
                apiVersion: v1
                kind: Pod
                metadata: p2
                ---
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: huge}
                value: 3000000000
                ---
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: big}
                value: 2000000000
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: p3, labels: {version: 1.0}}
                spec: {containers: [{name: c, image: i}]}
                """,
            List.of(
                "in.yaml:6 (document 2): Pod default/p: metadata.labels: invalid type: got"
                    + " \"array\", expected \"map\"",
                "in.yaml:11 (document 3): Deployment default/d: spec.replicas: invalid type: got"
                    + " \"string\", expected \"integer\"",
                "in.yaml:19 (document 4): Pod default/<unnamed>: metadata: invalid type: got"
                    + " \"string\", expected \"object\"",
                "in.yaml:23 (document 5): PriorityClass huge: value: Invalid value: 3000000000:"
                    + " must fit in a 32-bit integer",
                "in.yaml:28 (document 6): PriorityClass big: value: Forbidden: maximum allowed"
                    + " value of a user defined priority is 1000000000",
                "in.yaml:33 (document 7): Pod default/p3: metadata.labels.version: invalid type:"
                    + " got \"number\", expected \"string\""),
            2),
        Arguments.argumentSet(
            "a duplicate YAML key names file and line",
            NODE
                + """
                apiVersion: v1
                kind: Pod
                metadata: {name: p}
                spec:
                  containers: [{name: c, image: i}]
                  containers: [{name: d, image: i}]
                """,
            List.of("in.yaml:11:3: invalid YAML: found duplicate key containers"),
            2),
        Arguments.argumentSet(
            "duplicate objects are refused as the API server refuses them",
            NODE
                + """
                apiVersion: v1
                kind: Pod
                metadata: {name: p}
                spec: {containers: [{name: c, image: i}]}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: p, namespace: default}
                spec: {containers: [{name: c, image: i}]}
                ---
                apiVersion: v1
                kind: Node
                metadata: {name: n1}
                """,
            List.of(
                "in.yaml:11 (document 3): Pod default/p: pods \"p\" already exists (first defined"
                    + " at in.yaml:6 (document 2))",
                "in.yaml:16 (document 4): Node n1: nodes \"n1\" already exists (first defined at"
                    + " in.yaml:1 (document 1))"),
            2),
        Arguments.argumentSet(
            "workloads, Jobs and PodDisruptionBudgets",
            NODE
                + """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: d}
                spec:
                  replicas: -1
                  selector: {matchLabels: {app: d}}
                  template: {metadata: {labels: {app: other}}, spec: {containers: [{name: c, image: i}]}}
                ---
                apiVersion: batch/v1
                kind: Job
                metadata: {name: j}
                spec:
                  parallelism: -2
                  template: {spec: {containers: [{name: c, image: i}]}}
                ---
                apiVersion: policy/v1
                kind: PodDisruptionBudget
                metadata: {name: pdb}
                spec: {minAvailable: 1, maxUnavailable: "150%", selector: {matchLabels: {app: d}}}
                """,
            List.of(
                "in.yaml:6 (document 2): Deployment default/d: spec.replicas: Invalid value: -1:"
                    + " must be greater than or equal to 0",
                "in.yaml:6 (document 2): Deployment default/d: spec.template.metadata.labels:"
                    + " Invalid value: map[string]string{\"app\":\"other\"}: `selector` does not"
                    + " match template `labels`",
                "in.yaml:14 (document 3): Job default/j: spec.parallelism: Invalid value: -2: must"
                    + " be greater than or equal to 0",
                "in.yaml:14 (document 3): Job default/j: spec.template.spec.restartPolicy:"
                    + " Unsupported value: \"Always\": supported values: \"OnFailure\", \"Never\"",
                "in.yaml:21 (document 4): PodDisruptionBudget default/pdb: spec: Invalid value:"
                    + " {minAvailable, maxUnavailable}: minAvailable and maxUnavailable cannot be"
                    + " both set",
                "in.yaml:21 (document 4): PodDisruptionBudget default/pdb: spec.maxUnavailable:"
                    + " Invalid value: \"150%\": must not be greater than 100%"),
            2),
        Arguments.argumentSet(
            "admission: unknown PriorityClass and RuntimeClass, a priority not from its class",
            NODE
                + """
                apiVersion: v1
                kind: Pod
                metadata: {name: p1}
                spec: {priorityClassName: gold, containers: [{name: c, image: i}]}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: p2}
                spec: {runtimeClassName: gvisor, containers: [{name: c, image: i}]}
                ---
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web}
                spec:
                  selector: {matchLabels: {app: web}}
                  template: {metadata: {labels: {app: web}}, spec: {priorityClassName: silver, containers: [{name: c, image: i}]}}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: q}
                spec: {priority: 7, containers: [{name: c, image: i}]}
                """,
            List.of(
                "in.yaml:6 (document 2): Pod default/p1: pods \"p1\" is forbidden: no"
                    + " PriorityClass with name gold was found",
                "in.yaml:11 (document 3): Pod default/p2: pods \"p2\" is forbidden: pod rejected:"
                    + " RuntimeClass \"gvisor\" not found",
                "in.yaml:23 (document 5): Pod default/q: pods \"q\" is forbidden: the integer"
                    + " value of priority (7) must not be provided in pod spec; priority admission"
                    + " controller computed 0 from the given PriorityClass name",
                "in.yaml:16 (document 4): Deployment default/web: spec.template: its pods would be"
                    + " forbidden: no PriorityClass with name silver was found"),
            2),
        Arguments.argumentSet(
            "a List's items are named by index and line; a kind in the wrong version",
            """
            apiVersion: v1
            kind: List
            items:
            - apiVersion: v1
              kind: Node
              metadata: {name: n1}
            - apiVersion: v1
              kind: Pod
              metadata: {name: p}
              spec: {containers: [{name: c, image: i, ports: [{containerPort: 99999}]}]}
            ---
            apiVersion: v1
            kind: Deployment
            metadata: {name: d}
            ---
            apiVersion: policy/v1beta1
            kind: PodDisruptionBudget
            metadata: {name: pdb}
            ---
            apiVersion: batch.volcano.sh/v1alpha1
            kind: Job
            metadata: {name: custom, namespace: default}
            """,
            List.of(
                "in.yaml:7 (document 1, items[1]): Pod default/p:"
                    + " spec.containers[0].ports[0].containerPort: Invalid value: 99999: must be"
                    + " between 1 and 65535, inclusive",
                "in.yaml:12 (document 2): no matches for kind \"Deployment\" in version \"v1\" (the"
                    + " simulator reads apps/v1)",
                "in.yaml:16 (document 3): no matches for kind \"PodDisruptionBudget\" in version"
                    + " \"policy/v1beta1\" (the simulator reads policy/v1)"),
            2),
        Arguments.argumentSet(
            "quantities too large to count; exa-binary ones (once exit 1) capped as apimachinery"
                + " caps them",
            """
            apiVersion: v1
            kind: Node
            metadata: {name: n1}
            status: {allocatable: {cpu: 1e400, memory: 99999999999999999999Ei, pods: "10"}}
            ---
            apiVersion: v1
            kind: Pod
            metadata: {name: p}
            spec: {containers: [{name: c, image: i, resources: {requests: {memory: 2Ei, cpu: 2Ei}}}]}
            """,
            List.of(
                "in.yaml:1 (document 1): Node n1: status.allocatable.cpu: Invalid value:"
                    + " \"10e399\": must be no more than 9223372036854775807m: the scheduler counts"
                    + " cpu in millicores in 64-bit integers",
                "in.yaml:6 (document 2): Pod default/p:"
                    + " spec.containers[0].resources.requests[cpu]: Invalid value:"
                    + " \"2305843009213693952\": must be no more than 9223372036854775807m: the"
                    + " scheduler counts cpu in millicores in 64-bit integers"),
            2),
        Arguments.argumentSet(
            "not a mapping, no kind",
            "- a\n- b\n---\napiVersion: v1\nmetadata: {name: x}\n",
            List.of(
                "in.yaml:1 (document 1): expected a Kubernetes object (a mapping), found a list",
                "in.yaml:4 (document 2): Object 'Kind' is missing"),
            2));
  }

  @ParameterizedTest
  @MethodSource("corpus")
  void badInputIsRefusedWithKubesWords(String yaml, List<String> stderr, int exitCode)
      throws Exception {
    Path f = dir.resolve("in.yaml");
    Files.writeString(f, yaml);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.run(new PrintWriter(out, true), new PrintWriter(err, true), "simulate", f.toString());
    List<String> lines = new ArrayList<>();
    for (String line : err.toString().split("\n")) {
      if (!line.isEmpty()) {
        lines.add(line.replace(dir + "/", ""));
      }
    }
    assertThat(lines).isEqualTo(stderr);
    assertThat(code).isEqualTo(exitCode);
    assertThat(out.toString()).isEmpty();
  }
}
