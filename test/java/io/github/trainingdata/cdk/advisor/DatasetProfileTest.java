package io.github.trainingdata.cdk.advisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.trainingdata.cdk.performance.PublishedFigures;
import io.github.trainingdata.cdk.performance.InstanceFacts;
import io.github.trainingdata.cdk.performance.ByteSize;
import java.time.Duration;
import java.util.List;
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
        assertEquals(new InstanceFacts(2.5, 400, true),
                dataset().instanceType("ml.p4d.24xlarge").hourlyPriceUsd(2.5).build().instance());
        // An unknown type is assumed to have an EBS volume and 10 Gbit/s.
        assertEquals(new InstanceFacts(9.99, 10, false),
                dataset().instanceType("ml.x9.2xlarge").hourlyPriceUsd(9.99).build().instance());
    }

    @Test
    void knownTypesCarryTheirNetworkAndStorage() {
        assertEquals(new InstanceFacts(3.825, 10, false), dataset().build().instance());
        assertEquals(new InstanceFacts(24.725, 800, true), dataset().instanceType("ml.trn1.32xlarge").build().instance());
        for (String family : List.of("ml.p4d.", "ml.p5.", "ml.g5.", "ml.g6.", "ml.trn1.")) {
            assertTrue(PublishedFigures.INSTANCES.keySet().stream().anyMatch(type -> type.startsWith(family)), family);
        }
    }

    @Test
    void unknownInstanceTypeWithoutPriceListsTheKnownTypes() {
        String message = rejected(b -> b.instanceType("ml.x9.2xlarge"));
        assertTrue(message.startsWith("instanceType 'ml.x9.2xlarge' has no published hourly price: set hourlyPriceUsd, or "
                + "use one of ml.c5.xlarge, ml.g4dn.xlarge, ml.g5.12xlarge, "), message);
        assertTrue(message.endsWith(", ml.trn1.2xlarge, ml.trn1.32xlarge, ml.trn1n.32xlarge"), message);
    }

    @Test
    void computeTimeIsGivenOrDerivedFromASampleRate() {
        assertEquals(Duration.ofHours(1), dataset().build().trainingTime());
        assertEquals(3600.0, dataset().build().computeSeconds());
        // 1,500,000 files, one sample each, 3 epochs at 500 samples/s: 9000 s.
        DatasetProfile rated = dataset().epochs(3).samplesPerSecond(500).build();
        assertEquals(Duration.ofSeconds(9000), rated.trainingTime());
        assertEquals(1_500_000, rated.samples());
        // TFRecord: few files, many samples.
        DatasetProfile records = DatasetProfile.builder().totalBytes(54 * ByteSize.GB).fileCount(491).samples(1_530_350)
                .samplesPerSecond(327).build();
        assertEquals(1_530_350 / 327.0, records.computeSeconds(), 1e-6);
    }

    @Test
    void rejectsBothComputeSpeedsAndBadRates() {
        assertEquals("give trainingTime or samplesPerSecond, not both: trainingTime was PT2H, samplesPerSecond was 300.0",
                rejected(b -> b.trainingTime(Duration.ofHours(2)).samplesPerSecond(300)));
        assertEquals("samplesPerSecond must be a finite number greater than 0, was 0.0", rejected(b -> b.samplesPerSecond(0)));
        assertEquals("samples must be at least 1, was 0", rejected(b -> b.samples(0).samplesPerSecond(3)));
    }

    @Test
    void keepsJobsAndSpotInterruptions() {
        DatasetProfile profile = dataset().jobs(12).spotInterruptions(0.5).build();
        assertEquals(12, profile.jobs());
        assertEquals(0.5, profile.spotInterruptions());
        assertEquals(1, dataset().build().jobs());
        assertEquals(0.0, dataset().build().spotInterruptions());
        assertEquals("jobs must be at least 1, was 0", rejected(b -> b.jobs(0)));
        assertEquals("spotInterruptions must be a finite number of at least 0, was -1.0",
                rejected(b -> b.spotInterruptions(-1)));
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
