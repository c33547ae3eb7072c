import OffgridCore

/// Every command's report: pretty JSON (sorted keys, exact numbers) and a newline on stdout.
func printReport<T: Encodable>(_ report: T) throws {
    StdIO.out(try JSONEncoding.string(report, pretty: true) + "\n")
}
