/// How long a request may take, in seconds: to connect, between two reads once connected (a server gone
/// silent), and in all (a server that trickles a byte every few seconds is never silent for long).
package struct HTTPTimeouts: Sendable, Hashable {
    /// `--connect-timeout`.
    package var connect: Double
    /// `--read-timeout`: the longest silence while a response comes in.
    package var read: Double
    /// `--request-timeout`: the whole request, from sending it to the last byte of the body.
    package var request: Double

    package init(connect: Double = 15, read: Double = 60, request: Double = 300) {
        self.connect = connect
        self.read = read
        self.request = request
    }
}
