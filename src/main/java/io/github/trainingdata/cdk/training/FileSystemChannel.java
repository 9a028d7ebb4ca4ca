package io.github.trainingdata.cdk.training;

import io.github.trainingdata.cdk.storage.StoreAccess;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What FSx for Lustre and EFS channels share: a FileSystemDataSource, an access mode, and File mode,
 * the only mode SageMaker mounts file systems in.
 */
abstract class FileSystemChannel extends TrainingChannel {
    private final ChannelAccessMode accessMode;

    FileSystemChannel(String name, ChannelAccessMode accessMode) {
        super(name);
        this.accessMode = Objects.requireNonNull(accessMode);
    }

    /** File-system channels always run in File mode. */
    @Override
    public ChannelInputMode getInputMode() {
        return ChannelInputMode.FILE;
    }

    /** @return how the file system is mounted */
    public ChannelAccessMode getAccessMode() {
        return accessMode;
    }

    /** Read-only mounts read, read-write ones also write. */
    @Override
    protected StoreAccess storeAccess() {
        return accessMode == ChannelAccessMode.READ_WRITE ? StoreAccess.READ_WRITE : StoreAccess.READ;
    }

    @Override
    protected String grantedPath() {
        return directoryPathOnFileSystem();
    }

    /** @return {@code FSxLustre} or {@code EFS} */
    abstract String fileSystemType();

    /** @return the file system id */
    abstract String fileSystemId();

    /** @return the DirectoryPath */
    abstract String directoryPathOnFileSystem();

    @Override
    protected Map<String, Object> render() {
        Map<String, Object> fs = new LinkedHashMap<>();
        fs.put("FileSystemId", fileSystemId());
        fs.put("FileSystemAccessMode", accessMode.apiValue());
        fs.put("FileSystemType", fileSystemType());
        fs.put("DirectoryPath", directoryPathOnFileSystem());
        Map<String, Object> channel = new LinkedHashMap<>();
        channel.put("ChannelName", getName());
        channel.put("DataSource", Map.of("FileSystemDataSource", fs));
        channel.put("InputMode", ChannelInputMode.FILE.apiValue());
        return channel;
    }
}
