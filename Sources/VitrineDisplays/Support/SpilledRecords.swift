import VitrineCore

/// Records of bytes (a card, a search entry) appended one after another in catalog order, and read back by number
/// once the last is in: the latest in memory, the rest in a scratch file past `inMemory` bytes, so a million
/// objects' records are never all in memory. Reading lets the scratch file's pages go every `readBetweenReleases`
/// bytes, whichever threads read them: a group's records are spread over the whole file, and its pages kept mapped
/// would add the whole file to the process's memory.
struct SpilledRecords: Sendable {
    private var memory: [UInt8] = []
    private var scratch: ScratchFile?
    /// Where each record ends: in the scratch file, then in `memory`.
    private var ends: [Int] = []
    private let inMemory: Int
    private let readBetweenReleases: Int
    /// How many times records went to the scratch file.
    private(set) var spills = 0

    init(inMemory: Int = 8 << 20, readBetweenReleases: Int = 16 << 20) {
        self.inMemory = inMemory
        self.readBetweenReleases = readBetweenReleases
    }

    var count: Int { ends.count }

    /// Appends one record: what `write` appends to the bytes it is given.
    mutating func append(_ write: (inout [UInt8]) -> Void) throws(ExportError) {
        // Room for what stays in memory and the one record that passes it: grown by doubling, it would be twice that.
        if ends.isEmpty { memory.reserveCapacity(inMemory + (1 << 16)) }
        write(&memory)
        ends.append((scratch?.size ?? 0) + memory.count)
        if memory.count >= inMemory { try spill() }
    }

    private mutating func spill() throws(ExportError) {
        if scratch == nil { scratch = try ScratchFile() }
        try scratch?.append(memory)
        memory.removeAll(keepingCapacity: true)
        spills += 1
    }

    /// Makes the records readable, once every one is appended.
    mutating func finish() throws(ExportError) {
        guard scratch != nil else { return }
        try spill()
        memory = []
        try scratch?.map()
    }

    /// Appends records `numbers` to `bytes`, with `separator` between two.
    func append(_ numbers: some Sequence<Int32>, separator: UInt8? = nil, to bytes: inout [UInt8]) {
        var read = 0
        for (position, number) in numbers.enumerated() {
            if position > 0, let separator { bytes.append(separator) }
            let record = Int(number)
            let range = (record == 0 ? 0 : ends[record - 1])..<ends[record]
            if let scratch {
                bytes.append(contentsOf: scratch.bytes(range))
            } else {
                bytes.append(contentsOf: memory[range])
            }
            read += range.count
        }
        scratch?.noteRead(read, releasingPast: readBetweenReleases)
    }
}
