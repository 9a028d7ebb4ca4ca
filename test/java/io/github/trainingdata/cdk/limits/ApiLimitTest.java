package io.github.trainingdata.cdk.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** How a limit checks values and words what it allows. */
class ApiLimitTest {

    @Test
    void patternsMatchTheWholeValue() {
        assertTrue(SageMakerLimits.CHANNEL_NAME.accepts("train.v2"));
        assertFalse(SageMakerLimits.CHANNEL_NAME.accepts("train data"), "a match inside the value is not enough");
        assertFalse(SageMakerLimits.FILE_SYSTEM_ID.accepts("xfs-0123456789abcdef0"));
        assertFalse(FsxLimits.MOUNT_NAME.accepts("abc\n"), "no line terminator after the match");
    }

    @Test
    void lengthIsCountedInCharactersNotUtf16Units() {
        String emojiLetters = "\uD835\uDC00".repeat(128);
        assertEquals(256, emojiLetters.length());
        assertTrue(SageMakerLimits.TAG_KEY.accepts(emojiLetters), "128 mathematical bold capitals are 128 letters");
    }

    @ParameterizedTest
    @ValueSource(strings = {"layers\n2", "\r"})
    void dotPatternsRejectLineBreaks(String value) {
        assertFalse(SageMakerLimits.HYPER_PARAMETER_VALUE.accepts(value));
        assertTrue(SageMakerLimits.ENVIRONMENT_VALUE.accepts(value), "[\\S\\s]* takes anything");
    }

    @Test
    void algorithmNamesMayNotEndInAHyphen() {
        assertTrue(SageMakerLimits.ALGORITHM_NAME.accepts("my-algorithm"));
        assertTrue(SageMakerLimits.ALGORITHM_NAME.accepts(
                "arn:aws:sagemaker:us-east-1:123456789012:algorithm/my-algorithm"));
        assertFalse(SageMakerLimits.ALGORITHM_NAME.accepts("my-algorithm-"));
        assertFalse(SageMakerLimits.ALGORITHM_NAME.accepts("xgboost:1.7"));
    }

    @Test
    void numbersMustBeWhole() {
        assertTrue(SageMakerLimits.INSTANCE_COUNT.acceptsNumber(2));
        assertTrue(SageMakerLimits.INSTANCE_COUNT.acceptsNumber(2.0));
        assertFalse(SageMakerLimits.INSTANCE_COUNT.acceptsNumber(1.5));
        assertFalse(SageMakerLimits.INSTANCE_COUNT.acceptsNumber(Double.NaN));
        assertFalse(SageMakerLimits.INSTANCE_COUNT.acceptsNumber(Double.POSITIVE_INFINITY));
        assertFalse(SageMakerLimits.INSTANCE_COUNT.acceptsNumber(0));
        assertFalse(SageMakerLimits.INSTANCE_COUNT.acceptsNumber(null));
    }

    @Test
    void wordsWhatIsAllowed() {
        assertEquals("1 to 64 characters matching [A-Za-z0-9\\.\\-_]+", SageMakerLimits.CHANNEL_NAME.allowed());
        assertEquals("at most 2500 characters without line breaks", SageMakerLimits.HYPER_PARAMETER_VALUE.allowed());
        assertEquals("at most 512 characters", SageMakerLimits.ENVIRONMENT_VALUE.allowed());
        assertEquals("1 to 26 characters matching [a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}, leaving room for a unique suffix",
                SageMakerLimits.JOB_NAME_PREFIX.allowed());
        assertEquals("a whole number of at least 1 GiB", SageMakerLimits.VOLUME_SIZE_IN_GB.allowed());
        assertEquals("a whole number from 0 to 3600 seconds", SageMakerLimits.KEEP_ALIVE_PERIOD_IN_SECONDS.allowed());
        assertEquals("1 to 100 strings", SageMakerLimits.CONTAINER_ARGUMENTS.allowed());
        assertEquals("at most 50 tags", SageMakerLimits.TAGS.allowed());
    }

    @Test
    void narrowingKeepsTheModelsConstraint() {
        ApiLimit prefix = SageMakerLimits.JOB_NAME_PREFIX;
        assertSame(SageMakerLimits.TRAINING_JOB_NAME, prefix.getModelLimit());
        assertEquals(26L, prefix.getMax());
        assertEquals(SageMakerLimits.TRAINING_JOB_NAME.getPattern(), prefix.getPattern());
        assertThrows(IllegalArgumentException.class, () -> SageMakerLimits.TRAINING_JOB_NAME.narrowed(null, 64L, null));
        assertThrows(IllegalArgumentException.class, () -> SageMakerLimits.INSTANCE_COUNT.narrowed(0L, null, null));
    }

    @Test
    void ssdCapacitiesAreTheDocumentedSteps() {
        assertTrue(FsxLimits.isValidSsdCapacityGiB(1200));
        assertTrue(FsxLimits.isValidSsdCapacityGiB(2400));
        assertTrue(FsxLimits.isValidSsdCapacityGiB(7200));
        assertFalse(FsxLimits.isValidSsdCapacityGiB(3600));
        assertFalse(FsxLimits.isValidSsdCapacityGiB(0));
        assertFalse(FsxLimits.isValidSsdCapacityGiB(2400L * 1_000_000), "beyond the model's StorageCapacity");
    }

    @Test
    void ssdMetadataIopsAreTheDocumentedValues() {
        for (long iops : new long[] {1500, 3000, 6000, 12000, 24000, 180000, 192000}) {
            assertTrue(FsxLimits.isValidSsdMetadataIops(iops), String.valueOf(iops));
        }
        for (long iops : new long[] {0, 1000, 2000, 4500, 9000, 18000, 204000}) {
            assertFalse(FsxLimits.isValidSsdMetadataIops(iops), String.valueOf(iops));
        }
    }
}
