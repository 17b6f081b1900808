extension Rights {
    /// CC0, as The Met and the Art Institute release their public-domain images.
    package static let publicDomainDedication = Rights(
        url: "https://creativecommons.org/publicdomain/zero/1.0/", label: "CC0 1.0", isOpen: true)

    /// A work the museum says is not in the public domain, with no statement of its own: not open.
    package static let notPublicDomain = Rights(url: nil, label: "Not in the public domain", isOpen: false)

    /// The rights a source states as a URI (`http://creativecommons.org/publicdomain/mark/1.0/`,
    /// `http://rightsstatements.org/vocab/InC/1.0/`) or in words (`dc:rights` prose); `nil` for blank text. Open only
    /// for public domain, CC0, CC BY and CC BY-SA: words are never taken to open an image, whatever they say.
    package init?(statement: String) {
        // Read by hand, not by Foundation's scans or `URLComponents`: every record of a collection states its rights.
        guard let first = statement.firstIndex(where: { !$0.isWhitespace }),
            let last = statement.lastIndex(where: { !$0.isWhitespace })
        else { return nil }
        let text = String(statement[first...last])
        // An address a catalog cannot link to (a byte outside printable ASCII, a megabyte long) opens nothing.
        guard let address = Self.webAddress(text), WebURL.isValid(text) else {
            self.init(url: nil, label: text, isOpen: false)
            return
        }
        let host = address.host
        let path = address.path.utf8.split(separator: UInt8(ascii: "/")).map { Substring($0).lowercased() }
        // Dot segments and escapes (`by/4.0/../../by-nc-nd/4.0/`) lead a browser elsewhere: such a path is not read.
        guard !path.contains(where: { $0 == "." || $0 == ".." || $0.contains("%") }) else {
            self.init(url: text, label: text, isOpen: false)
            return
        }
        switch host {
        case "creativecommons.org", "www.creativecommons.org":
            if let known = Self.creativeCommons(path) {
                self.init(url: text, label: known.label, isOpen: known.isOpen)
                return
            }
        case "rightsstatements.org", "www.rightsstatements.org":
            if path.count >= 2, path[0] == "vocab" || path[0] == "page",
                let label = Self.rightsStatements[path[1]]
            {
                self.init(url: text, label: label, isOpen: false)
                return
            }
        default:
            break
        }
        self.init(url: text, label: text, isOpen: false)
    }

    /// The host (lower-cased) and path of an `http` or `https` address with no space in it; `nil` for anything else.
    private static func webAddress(_ text: String) -> (host: String, path: Substring)? {
        let scheme = text.utf8.prefix { $0 != UInt8(ascii: ":") }
        guard scheme.count <= 5, !text.utf8.contains(UInt8(ascii: " ")),
            ["http", "https"].contains(String(Substring(scheme)).lowercased()),
            text.utf8[scheme.endIndex...].starts(with: "://".utf8)
        else { return nil }
        let rest = text.utf8[text.utf8.index(scheme.endIndex, offsetBy: 3)...]
        let end = rest.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? rest.endIndex
        let slash = rest[..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
        let host = Substring(rest[..<slash]).lowercased()
        guard !host.isEmpty else { return nil }
        return (host, text[slash..<end])
    }

    /// A Creative Commons address's label, from its path (`licenses/by-sa/4.0/deed.en`); `nil` for a license,
    /// version or path Creative Commons never published (`by-by/4.0`, `by/99.0`, `by/4.0/nc/`).
    private static func creativeCommons(_ path: [String]) -> (label: String, isOpen: Bool)? {
        guard path.count >= 3, ["1.0", "2.0", "2.1", "2.5", "3.0", "4.0"].contains(path[2]) else { return nil }
        var rest = path.dropFirst(3)
        // A license ported to a country (`by-sa/3.0/nl/`) is that country's: `CC BY-SA 3.0 NL`; so are the ports
        // to Scotland and to intergovernmental organisations (`by/3.0/igo/`).
        // Ports came with versions 1.0 to 3.0 (2.1 only as one, IGO only in 3.0); 4.0 has none.
        var port = ""
        if path[0] == "licenses", path[2] != "4.0", let first = rest.first, Self.creativeCommonsPorts.contains(first),
            first != "igo" || path[2] == "3.0"
        {
            port = first == "igo" ? " IGO" : first == "scotland" ? " Scotland" : " " + first.uppercased()
            rest = rest.dropFirst()
        }
        guard path[2] != "2.1" || !port.isEmpty else { return nil }
        // Then at most the page itself: the deed or the legal code, in a language.
        guard rest.count <= 1,
            rest.allSatisfy({ ["deed", "legalcode"].contains($0.split(separator: ".").first.map(String.init) ?? "") })
        else { return nil }
        switch (path[0], path[1]) {
        case ("publicdomain", "mark") where path[2] == "1.0":
            return ("Public Domain Mark", true)
        case ("publicdomain", "zero") where path[2] == "1.0":
            return ("CC0 1.0", true)
        case ("licenses", let kind)
        where path[2] == "1.0"
            ? Self.creativeCommonsLicensesOne.contains(kind) : Self.creativeCommonsLicenses.contains(kind):
            let isOpen = !kind.contains("nc") && !kind.contains("nd")
            return ("CC " + kind.uppercased() + " " + path[2] + port, isOpen)
        default:
            return nil
        }
    }

    /// The jurisdictions Creative Commons ported its licenses to (`by/3.0/nl/`).
    private static let creativeCommonsPorts: Set<String> = [
        "am", "ar", "at", "au", "az", "be", "bg", "br", "ca", "ch", "cl", "cn", "co", "cr", "cz", "de", "dk", "ec",
        "ee", "eg", "es", "eu", "fi", "fr", "ge", "gr", "gt", "hk", "hr", "hu", "ie", "igo", "il", "in", "it", "jo",
        "jp", "kr", "lu", "mk", "mt", "mx", "my", "nl", "no", "nz", "pe", "ph", "pl", "pr", "pt", "ro", "rs",
        "scotland", "se", "sg", "si", "sk", "th", "tw", "ua", "ug", "uk", "us", "ve", "vn", "za",
    ]

    /// The licenses Creative Commons published from version 2.0 on, and in 1.0 (with and without attribution).
    private static let creativeCommonsLicenses: Set<String> = ["by", "by-sa", "by-nd", "by-nc", "by-nc-sa", "by-nc-nd"]
    private static let creativeCommonsLicensesOne: Set<String> = [
        "by", "by-sa", "by-nd", "by-nc", "by-nc-sa", "by-nd-nc", "sa", "nd", "nc", "nc-sa", "nd-nc",
    ]

    /// rightsstatements.org's statements by their code: none of them opens an image for reuse everywhere.
    private static let rightsStatements = [
        "inc": "In Copyright",
        "inc-ow-eu": "In Copyright – EU Orphan Work",
        "inc-edu": "In Copyright – Educational Use Permitted",
        "inc-nc": "In Copyright – Non-Commercial Use Permitted",
        "inc-ruu": "In Copyright – Rights-holder(s) Unlocatable or Unidentifiable",
        "noc-cr": "No Copyright – Contractual Restrictions",
        "noc-nc": "No Copyright – Non-Commercial Use Only",
        "noc-oklr": "No Copyright – Other Known Legal Restrictions",
        "noc-us": "No Copyright – United States",
        "cne": "Copyright Not Evaluated",
        "und": "Copyright Undetermined",
        "nkc": "No Known Copyright",
    ]
}
