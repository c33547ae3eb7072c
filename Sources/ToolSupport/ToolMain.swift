import ArgumentParser
import OffgridCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a command with the project's exit codes: 0 success, 1 bad input (one clear line),
/// 2 usage errors. ArgumentParser's own `main()` would exit 64 on usage errors.
public enum ToolMain {
    public static func run<Command: ParsableCommand>(_ type: Command.Type,
                                                     arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
        let tool = type.configuration.commandName ?? "\(Command.self)"
        var command: ParsableCommand
        do {
            command = try type.parseAsRoot(arguments)
        } catch {
            let code = type.exitCode(for: error)
            let message = type.fullMessage(for: error)
            if code == .success {
                print(message)
                exit(0)
            }
            StdIO.err(message + "\n")
            exit(2)
        }
        do {
            try command.run()
            exit(0)
        } catch let error as InputError {
            StdIO.err("\(tool): error: \(error.description)\n")
            exit(1)
        } catch let error as ValidationError {
            StdIO.err("\(tool): error: \(error.message)\n")
            exit(2)
        } catch let error as ExitCode {
            exit(error.rawValue)
        } catch {
            // `--help` parses into a command whose run() throws a clean exit carrying the text.
            let code = type.exitCode(for: error)
            if code == .success {
                print(type.fullMessage(for: error))
                exit(0)
            }
            StdIO.err("\(tool): error: \(error)\n")
            exit(1)
        }
    }
}
