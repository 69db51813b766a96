import PhotoFilerSystem

/// A binary min-heap of (deadline, generation, path), the debouncer's timer wheel.
///
/// Re-arming a path pushes a new node instead of searching for the old one; the
/// old node is recognised as stale by its generation when it surfaces. So each
/// event costs O(log n) and there is never one timer per file.
package struct DeadlineHeap {
    package struct Node {
        package var deadline: UInt64
        package var generation: UInt64
        package var path: BytePath
    }

    package private(set) var nodes: [Node] = []

    package var count: Int { nodes.count }
    package var first: Node? { nodes.first }

    package mutating func push(_ node: Node) {
        nodes.append(node)
        var child = nodes.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            if nodes[parent].deadline <= nodes[child].deadline { break }
            nodes.swapAt(parent, child)
            child = parent
        }
    }

    @discardableResult
    package mutating func popFirst() -> Node? {
        guard !nodes.isEmpty else { return nil }
        nodes.swapAt(0, nodes.count - 1)
        let top = nodes.removeLast()
        siftDown(from: 0)
        return top
    }

    /// Rebuilds the heap from `live` nodes only (Floyd's O(n) heapify), dropping
    /// stale ones so memory stays proportional to the pending paths.
    package mutating func rebuild(from live: [Node]) {
        nodes = live
        var index = nodes.count / 2
        while index > 0 {
            index -= 1
            siftDown(from: index)
        }
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < nodes.count, nodes[left].deadline < nodes[smallest].deadline { smallest = left }
            if right < nodes.count, nodes[right].deadline < nodes[smallest].deadline { smallest = right }
            if smallest == parent { return }
            nodes.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
