/// The toolchain's version, recorded in the files it writes.
public enum OffgridVersion {
    public static let string = "0.1.0"
}
