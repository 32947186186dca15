package io.kubesched.core.cache;

import io.kubernetes.client.openapi.models.V1Node;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node names grouped by zone, listed zone by zone in round-robin order (kube's {@code
 * nodeTree}). Not thread-safe; the cache guards it.
 */
final class NodeTree {
  private static final Logger LOG = LoggerFactory.getLogger(NodeTree.class);

  static final String LABEL_ZONE = "topology.kubernetes.io/zone";
  static final String LABEL_REGION = "topology.kubernetes.io/region";
  static final String LABEL_BETA_ZONE = "failure-domain.beta.kubernetes.io/zone";
  static final String LABEL_BETA_REGION = "failure-domain.beta.kubernetes.io/region";

  private final Map<String, List<String>> tree = new HashMap<>();
  private final List<String> zones = new ArrayList<>();
  // Every (zone, node) pair held, so that adding 5,000 nodes is not a scan of the zone per node.
  private final java.util.Set<String> members = new java.util.HashSet<>();
  private int numNodes;

  /**
   * Returns the zone key of {@code node}: {@code region + ":\0:" + zone} from the topology labels
   * (falling back to the deprecated failure-domain labels), or {@code ""} when both are empty.
   */
  static String zoneKey(V1Node node) {
    Map<String, String> labels = node.getMetadata() == null ? null : node.getMetadata().getLabels();
    if (labels == null) {
      return "";
    }
    String zone =
        labels.containsKey(LABEL_ZONE) ? labels.get(LABEL_ZONE) : labels.get(LABEL_BETA_ZONE);
    String region =
        labels.containsKey(LABEL_REGION) ? labels.get(LABEL_REGION) : labels.get(LABEL_BETA_REGION);
    zone = zone == null ? "" : zone;
    region = region == null ? "" : region;
    if (region.isEmpty() && zone.isEmpty()) {
      return "";
    }
    return region + ":\0:" + zone;
  }

  private static String member(String zone, V1Node node) {
    return zone + "\u0000\u0000" + name(node);
  }

  private static String name(V1Node node) {
    return node.getMetadata().getName();
  }

  /** Adds {@code node} to its zone; a node already present is ignored. */
  void addNode(V1Node node) {
    String zone = zoneKey(node);
    List<String> names = tree.get(zone);
    if (names != null) {
      if (!members.add(member(zone, node))) {
        LOG.atInfo()
            .addKeyValue("node", name(node))
            .log("Did not add to the NodeTree because it already exists");
        return;
      }
      names.add(name(node));
    } else {
      zones.add(zone);
      members.add(member(zone, node));
      names = new ArrayList<>();
      names.add(name(node));
      tree.put(zone, names);
    }
    numNodes++;
  }

  /** Removes {@code node}; returns {@code false} when it was not in its zone. */
  boolean removeNode(V1Node node) {
    String zone = zoneKey(node);
    List<String> names = tree.get(zone);
    if (names != null && members.remove(member(zone, node))) {
      names.remove(name(node));
      if (names.isEmpty()) {
        tree.remove(zone);
        zones.remove(zone);
      }
      numNodes--;
      return true;
    }
    LOG.atError()
        .addKeyValue("node", name(node))
        .log("Did not remove Node in NodeTree because it was not found");
    return false;
  }

  /** Moves the node to its new zone when the zone key changed. */
  void updateNode(V1Node oldNode, V1Node newNode) {
    String oldZone = oldNode == null ? "" : zoneKey(oldNode);
    String newZone = zoneKey(newNode);
    if (oldZone.equals(newZone)) {
      return;
    }
    if (oldNode != null) {
      removeNode(oldNode);
    }
    addNode(newNode);
  }

  /** Returns the number of nodes. */
  int numNodes() {
    return numNodes;
  }

  /** Returns the node names: the i-th node of every zone, zone by zone, for i = 0, 1, ... */
  List<String> list() {
    List<String> out = new ArrayList<>(numNodes);
    if (zones.isEmpty()) {
      return out;
    }
    int exhausted = 0;
    int index = 0;
    while (out.size() < numNodes) {
      if (exhausted >= zones.size()) {
        LOG.atError().log("all zones exhausted before reaching count of nodes expected");
        return out;
      }
      for (String zone : zones) {
        List<String> names = tree.get(zone);
        if (index >= names.size()) {
          if (index == names.size()) {
            exhausted++;
          }
          continue;
        }
        out.add(names.get(index));
      }
      index++;
    }
    return out;
  }
}
