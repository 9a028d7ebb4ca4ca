package io.github.trainingdata.cdk.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class TrainingJobNamesTest {
    private static final String LONGEST_PREFIX = "a-" + "b".repeat(23) + "9";

    @ParameterizedTest
    @ValueSource(strings = {"a", "Z9", "resnet--train", "a-bbbbbbbbbbbbbbbbbbbbbbb9"})
    void acceptsValidPrefixes(String prefix) {
        assertEquals(prefix, TrainingJobNames.requireValidPrefix(prefix));
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"-train", "train-", "train_1", "train.1", "trän", "aaaaaaaaaaaaaaaaaaaaaaaaaaa"})
    void rejectsInvalidPrefixes(String prefix) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TrainingJobNames.requireValidPrefix(prefix));
        assertTrue(e.getMessage().startsWith("Invalid training job name prefix '" + prefix + "'"), e.getMessage());
    }

    @Test
    void timestampedNamesFitSageMakersPattern() {
        String name = TrainingJobNames.timestamped(LONGEST_PREFIX, Instant.parse("2026-12-31T23:59:58Z"), new Random(1));
        assertTrue(name.matches(LONGEST_PREFIX + "-20261231-235958-[0-9a-f]{4}"), name);
        assertTrue(TrainingJobNames.isValidName(name), name);
        assertTrue(name.length() <= 63);
    }

    @Test
    void hashedNamesAreDeterministicAndDistinct() {
        String name = TrainingJobNames.hashed(LONGEST_PREFIX, "stack|Preload|request-1");
        assertEquals(name, TrainingJobNames.hashed(LONGEST_PREFIX, "stack|Preload|request-1"));
        assertNotEquals(name, TrainingJobNames.hashed(LONGEST_PREFIX, "stack|Preload|request-2"));
        assertTrue(name.matches(LONGEST_PREFIX + "-[0-9a-f]{12}"), name);
        assertTrue(TrainingJobNames.isValidName(name));
    }

    @Test
    void recognisesJobNames() {
        assertTrue(TrainingJobNames.isValidName("a".repeat(63)));
        assertFalse(TrainingJobNames.isValidName("a".repeat(64)));
        assertFalse(TrainingJobNames.isValidName("arn:aws:sagemaker:us-east-1:1:training-job/x"));
        assertFalse(TrainingJobNames.isValidName(null));
    }

    @ParameterizedTest
    @ValueSource(strings = {"train-0f8fad5b-d9cb-469f-a165-70867728950e", "train-20261231-235958-0a9f",
            "Train-0F8FAD5B-D9CB-469F-A165-70867728950E", "TRAIN-20261231-235958-0A9F"})
    void recognisesTheJobsADefinitionStarted(String name) {
        assertTrue(TrainingJobNames.isStartedUnder(name, "train"), name);
        assertTrue(TrainingJobNames.isStartedUnder(TrainingJobNames.timestamped("train", Instant.now(), new Random(5)),
                "train"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"trainer-0f8fad5b-d9cb-469f-a165-70867728950e", "train-big-0f8fad5b-d9cb-469f-a165-70867728950e",
            "train-big-20261231-235958-0a9f", "warm-train-0123456789ab", "train-0123456789ab", "train-manual",
            "train-20261231-235958-0a9f-1", "train", "xtrain-20261231-235958-0a9f"})
    void leavesOtherJobsAloneAlsoWhenTheirPrefixStartsTheSame(String name) {
        assertFalse(TrainingJobNames.isStartedUnder(name, "train"), name);
    }
}
