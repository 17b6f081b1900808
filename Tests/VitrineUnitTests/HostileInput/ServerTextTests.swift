import AsyncHTTPClient
import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineCore
@testable import VitrineDisplays
@testable import VitrineHTTP
@testable import VitrineSources

/// What a server says reaches the terminal only as printable text, credentials in a base URL never reach a
/// message, and failures that asking again would repeat are not retried (issue 12, items 11, 12 and 15).
@Suite struct ServerTextTests {
    @Test(arguments: [
        ("plain text", "plain text"),
        ("\u{1B}]0;pwned\u{07}\u{1B}[2Jgone", "]0;pwned[2Jgone"),
        ("line\r\nbreak\ttab", "line  break tab"),
        ("nul\u{0}del\u{7F}c1\u{9B}31m", "nuldelc131m"),
        ("invoice\u{202E}fdp.exe", "invoicefdp.exe"),
        ("Café 葛飾北斎", "Café 葛飾北斎"),
        ("\u{FEFF}BOM Maker\u{200B}", "BOM Maker"),
        ("שלום\u{200F} 1642", "שלום\u{200F} 1642"),
        // Found by a review: the other line breaks joined words.
        ("one\u{85}two\u{2028}three\u{2029}four\u{0B}five\u{0C}six", "one two three four five six"),
    ])
    func `control characters and bidi overrides are taken out of server text`(raw: String, shown: String) {
        #expect(PrintableText.clean(raw) == shown)
    }

    @Test func `an error body with escape sequences reaches a message as printable text`() {
        let body = Data("\u{1B}]0;owned\u{07}\u{1B}[2J<h1>Service\nUnavailable</h1>".utf8)
        let failure = SourceResponse(status: 503, body: body).statusFailure
        #expect(failure?.message == "the server answered HTTP 503: ]0;owned[2J<h1>Service Unavailable</h1>")
        let lines = Locked<[String]>([])
        let terminal = TerminalDisplay(quiet: false, write: { line in lines.withLock { $0.append(line) } })
        terminal.displaySummary(
            viewModel: SummaryViewModel(
                warnings: ["warning: page 1, record 2: \u{1B}[31mred"], notices: [], summary: "vitrine: x")
        )
        #expect(lines.current == ["warning: page 1, record 2: [31mred", "vitrine: x"])
    }

    @Test func `user and password in a base URL are redacted everywhere and sent as Basic authentication`() {
        #expect(
            URLRedaction.redact("https://alice:s3cret@mirror.example/oai?verb=ListRecords&key=k")
                == "https://***@mirror.example/oai?verb=ListRecords&key=***")
        #expect(URLRedaction.redact("https://mirror.example/a@b") == "https://mirror.example/a@b")
        let request = SourceRequest(url: url("https://alice:s3cret@mirror.example/oai?verb=Identify"))
        #expect(!request.redactedURL.contains("s3cret"))
        let (address, credentials) = AsyncHTTPTransport.splitCredentials(request.url)
        #expect(address == "https://mirror.example/oai?verb=Identify")
        #expect(credentials?.user == "alice" && credentials?.password == "s3cret")
    }

    /// Found by a hostile check: a server that echoed the request in an error page put the key into the message.
    @Test func `a key a server echoes is hidden in its answer, from the query and from the headers`() {
        let request = SourceRequest(
            url: url("https://api.example/photos?page=2&client_id=abc%2Fdef&key=SECRETKEY123"),
            headers: ["Authorization": "Client-ID t0ken-x", "X-Api-Key": "h3ader-key", "Accept": "application/json"])
        let echoed = "GET /photos?client_id=abc%2Fdef&key=SECRETKEY123 (abc/def) Client-ID t0ken-x h3ader-key json"
        let answer = SourceResponse(status: 401, body: Data(echoed.utf8)).withoutSecrets(of: request)
        #expect(
            String(decoding: answer.body, as: UTF8.self)
                == "GET /photos?client_id=***&key=*** (***) Client-ID *** *** json")
        // Nothing to hide: the same answer.
        let plain = SourceResponse(status: 500, body: Data(echoed.utf8))
        #expect(plain.withoutSecrets(of: SourceRequest(url: url("https://api.example/oai?verb=Identify"))) == plain)
    }

    @Test func `a redirect loop or a bad URL is final; a timeout or a dropped connection is retried`() {
        let loop = AsyncHTTPTransport.failure(HTTPClientError.redirectCycleDetected)
        #expect(loop == .unusableResponse("the server redirects in a loop"))
        #expect(!loop.isTransient)
        #expect(!AsyncHTTPTransport.failure(HTTPClientError.redirectLimitReached).isTransient)
        #expect(!AsyncHTTPTransport.failure(HTTPClientError.invalidURL).isTransient)
        #expect(
            AsyncHTTPTransport.failure(HTTPClientError.readTimeout)
                == .connection("the server went silent for 60 s (--read-timeout)"))
        #expect(AsyncHTTPTransport.failure(HTTPClientError.remoteConnectionClosed).isTransient)
        // No Swift type names in what the user reads.
        #expect(!AsyncHTTPTransport.failure(HTTPClientError.redirectCycleDetected).message.contains("HTTPClientError"))
    }
}
