package io.github.trainingdata.cdk.advisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class DatasetProfileTest {

    private static DatasetProfile.Builder dataset() {
        return DatasetProfile.builder().totalBytes(54 * ByteSize.GB).fileCount(1_500_000);
    }

    private static String rejected(UnaryOperator<DatasetProfile.Builder> change) {
        return assertThrows(IllegalArgumentException.class, () -> change.apply(dataset()).build()).getMessage();
    }

    @Test
    void appliesDefaults() {
        DatasetProfile profile = dataset().build();
        assertEquals(54 * ByteSize.GB, profile.totalBytes());
        assertEquals(1_500_000, profile.fileCount());
        assertEquals(AccessPattern.SEQUENTIAL, profile.accessPattern());
        assertEquals(1, profile.epochs());
        assertEquals(DataLocation.S3, profile.dataLocation());
        assertFalse(profile.streamable());
        assertEquals("ml.p3.2xlarge", profile.instanceType());
        assertEquals(1, profile.instanceCount());
        assertEquals(Duration.ofHours(1), profile.trainingTime());
        assertEquals(3.825, profile.hourlyPriceUsd());
    }

    @Test
    void derivesAverageFileSizeFromFileCount() {
        assertEquals(36_000, dataset().build().averageFileBytes(), 1e-9);
    }

    @Test
    void derivesFileCountFromAverageFileSize() {
        DatasetProfile profile = DatasetProfile.builder().totalBytes(54 * ByteSize.GB).averageFileBytes(40 * ByteSize.MB)
                .build();
        assertEquals(1350, profile.fileCount());
        assertEquals(40 * ByteSize.MB, profile.averageFileBytes());
        DatasetProfile oneFile = DatasetProfile.builder().totalBytes(10).averageFileBytes(10).build();
        assertEquals(1, oneFile.fileCount());
    }

    @Test
    void keepsEveryGivenField() {
        DatasetProfile profile = dataset().accessPattern(AccessPattern.RANDOM).epochs(7).dataLocation(DataLocation.EFS)
                .streamable(true).instanceType("ml.g5.xlarge").instanceCount(4).trainingTime(Duration.ofMinutes(90))
                .build();
        assertEquals(AccessPattern.RANDOM, profile.accessPattern());
        assertEquals(7, profile.epochs());
        assertEquals(DataLocation.EFS, profile.dataLocation());
        assertEquals(true, profile.streamable());
        assertEquals("ml.g5.xlarge", profile.instanceType());
        assertEquals(4, profile.instanceCount());
        assertEquals(Duration.ofMinutes(90), profile.trainingTime());
        assertEquals(1.408, profile.hourlyPriceUsd());
    }

    @Test
    void hourlyPriceOverridesThePublishedFigureAndAllowsUnknownTypes() {
        assertEquals(2.5, dataset().hourlyPriceUsd(2.5).build().hourlyPriceUsd());
        assertEquals(9.99, dataset().instanceType("ml.trn1.2xlarge").hourlyPriceUsd(9.99).build().hourlyPriceUsd());
    }

    @Test
    void unknownInstanceTypeWithoutPriceListsTheKnownTypes() {
        assertEquals("instanceType 'ml.trn1.2xlarge' has no published hourly price: set hourlyPriceUsd, or use one of "
                        + "ml.c5.xlarge, ml.g4dn.xlarge, ml.g5.xlarge, ml.m5.xlarge, ml.p3.16xlarge, ml.p3.2xlarge, "
                        + "ml.p3.8xlarge, ml.p4d.24xlarge",
                rejected(b -> b.instanceType("ml.trn1.2xlarge")));
    }

    @Test
    void requiresTheSizeAndExactlyOneOfFileCountOrAverageSize() {
        assertEquals("totalBytes is required: the dataset size in bytes, greater than 0",
                assertThrows(IllegalArgumentException.class, () -> DatasetProfile.builder().fileCount(3).build())
                        .getMessage());
        assertEquals("one of fileCount or averageFileBytes is required", assertThrows(IllegalArgumentException.class,
                () -> DatasetProfile.builder().totalBytes(5).build()).getMessage());
        assertEquals("give fileCount or averageFileBytes, not both: fileCount was 1500000, averageFileBytes was 40000000",
                rejected(b -> b.averageFileBytes(40 * ByteSize.MB)));
    }

    @Test
    void rejectsOutOfRangeNumbersNamingTheField() {
        assertEquals("totalBytes must be greater than 0, was 0", rejected(b -> b.totalBytes(0)));
        assertEquals("fileCount must be at least 1, was 0", rejected(b -> b.fileCount(0)));
        assertEquals("epochs must be at least 1, was 0", rejected(b -> b.epochs(0)));
        assertEquals("instanceCount must be at least 1, was -2", rejected(b -> b.instanceCount(-2)));
        assertEquals("hourlyPriceUsd must be a finite number greater than 0, was 0.0", rejected(b -> b.hourlyPriceUsd(0)));
        assertEquals("hourlyPriceUsd must be a finite number greater than 0, was NaN",
                rejected(b -> b.hourlyPriceUsd(Double.NaN)));
    }

    @Test
    void rejectsAverageFileSizesOutsideTheDataset() {
        UnaryOperator<DatasetProfile.Builder> byAverage = b -> DatasetProfile.builder().totalBytes(ByteSize.GB);
        assertEquals("averageFileBytes must be between 1 and totalBytes (1000000000), was 2000000000",
                rejected(b -> byAverage.apply(b).averageFileBytes(2 * ByteSize.GB)));
        assertEquals("averageFileBytes must be between 1 and totalBytes (1000000000), was 0",
                rejected(b -> byAverage.apply(b).averageFileBytes(0)));
    }

    @Test
    void rejectsMissingChoicesAndDurations() {
        assertEquals("accessPattern must be SEQUENTIAL or RANDOM, was null", rejected(b -> b.accessPattern(null)));
        assertEquals("dataLocation must be S3 or EFS, was null", rejected(b -> b.dataLocation(null)));
        assertEquals("trainingTime must be a positive duration, was null", rejected(b -> b.trainingTime(null)));
        assertEquals("trainingTime must be a positive duration, was PT0S", rejected(b -> b.trainingTime(Duration.ZERO)));
        assertEquals("trainingTime must be a positive duration, was PT-1M",
                rejected(b -> b.trainingTime(Duration.ofMinutes(-1))));
        assertEquals("instanceType must be a SageMaker instance type such as ml.p3.2xlarge, was ' '",
                rejected(b -> b.instanceType(" ")));
        assertEquals("instanceType must be a SageMaker instance type such as ml.p3.2xlarge, was 'null'",
                rejected(b -> b.instanceType(null)));
    }
}
