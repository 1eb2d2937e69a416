"""Run one scatterv or gatherv tree in SimGrid; print its completion time.

Usage: python3 simgrid_oracle.py PLATFORM.xml TREE.json, with Debian's python3-simgrid
(a system Python module: run it with the system interpreter).  TREE.json holds
``kind``, ``root``, ``children`` (ordered lists) and ``volume`` (bytes of each
subtree).  SimGrid's CM02 model without TCP corrections: flows share links by max-min.
One actor per host; a node sends (receives) its children's messages one after another,
in list order, on one mailbox per tree edge, so that the transfers follow the same
one-port order as hetcoll's predictors (NOTES.md §4).
"""

import json
import sys

from simgrid import Actor, Engine, Host, Mailbox


def main() -> None:
    platform, tree_file = sys.argv[1:3]
    with open(tree_file) as handle:
        tree = json.load(handle)
    engine = Engine([sys.argv[0], "--cfg=network/model:CM02", "--cfg=network/TCP-gamma:0",
                     "--cfg=network/crosstraffic:0", "--log=root.thres:critical"])
    engine.load_platform(platform)
    children, volume, root = tree["children"], tree["volume"], tree["root"]
    parent = {c: node for node, kids in children.items() for c in kids}
    done = {}

    def scatter(node):
        if node != root:
            Mailbox.by_name(f"{parent[node]}->{node}").get()
        done[node] = Engine.clock
        for child in children[node]:
            Mailbox.by_name(f"{node}->{child}").put(child, int(volume[child]))

    def gather(node):
        for child in children[node]:
            Mailbox.by_name(f"{child}->{node}").get()
        done[node] = Engine.clock
        if node != root:
            Mailbox.by_name(f"{node}->{parent[node]}").put(node, int(volume[node]))

    work = scatter if tree["kind"] == "scatterv" else gather
    for node in children:
        Actor.create(node, Host.by_name(node), work, node)
    engine.run()
    print(repr(max(done.values()) if tree["kind"] == "scatterv" else done[root]))


if __name__ == "__main__":
    main()
