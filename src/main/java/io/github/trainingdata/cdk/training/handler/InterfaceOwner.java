package io.github.trainingdata.cdk.training.handler;

import io.github.trainingdata.cdk.launch.TrainingJobNames;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Whose training job a network interface serves, as far as its description and tag values name a job: the
 * deleted definition's ({@link Kind#DEFINITION}), another job this library started ({@link Kind#OTHER_JOB}:
 * another definition's {@code <prefix>-<UUID>} or {@code <prefix>-<yyyyMMdd-HHmmss>-<4 hex>}, a preload
 * worker's {@code warm-…-<12 hex>}), or nobody's that can be told ({@link Kind#UNKNOWN}).
 *
 * <p>No AWS text says what SageMaker writes on the interfaces it creates for a training job (UNVERIFIED: whether
 * the job's name or ARN appears in the description or a tag). The teardown is safe either way: an interface that
 * names one of the definition's jobs is waited for until it is gone; one that names another job is not waited for;
 * one that names no job is waited for only while one of the definition's jobs ended within the last hour (the
 * bounded wait the teardown had before it could tell interfaces apart). Job names are compared ignoring case
 * (ARNs have shown them in lowercase).
 *
 * @param kind whose it is
 * @param job  the job it names, or null for {@link Kind#UNKNOWN}
 */
record InterfaceOwner(Kind kind, String job) {
    /** Whose job an interface serves. */
    enum Kind {
        /** A job the deleted definition started. */
        DEFINITION,
        /** A job this library started for another definition or a preload. */
        OTHER_JOB,
        /** No job the interface's text names. */
        UNKNOWN
    }

    /** Splits free text into the words a job name or ARN can be made of. */
    private static final Pattern NOT_IN_A_NAME = Pattern.compile("[^A-Za-z0-9-]+");
    /** A preload worker's name: {@code warm-…-<12 hex>} ({@code PreloadSpec.workerPrefix}, {@code TrainingJobNames.hashed}). */
    private static final Pattern WORKER = Pattern.compile("warm-[A-Za-z0-9-]*-[0-9a-f]{12}", Pattern.CASE_INSENSITIVE);

    /**
     * Tells whose job {@code eni} serves.
     *
     * @param eni    the interface
     * @param prefix the deleted definition's job-name prefix
     * @return the owner: the definition's when any word names one of its jobs, else another job's when a word
     *     names one, else unknown
     */
    static InterfaceOwner of(NetworkInterface eni, String prefix) {
        List<String> words = new ArrayList<>();
        List<String> texts = new ArrayList<>(eni.tagValues());
        texts.add(0, eni.description() == null ? "" : eni.description());
        for (String text : texts) {
            for (String word : NOT_IN_A_NAME.split(text)) {
                if (TrainingJobNames.isValidName(word)) {
                    words.add(word);
                }
            }
        }
        for (String word : words) {
            if (TrainingJobNames.isStartedUnder(word, prefix)) {
                return new InterfaceOwner(Kind.DEFINITION, word);
            }
        }
        for (String word : words) {
            if (startedByThisLibrary(word)) {
                return new InterfaceOwner(Kind.OTHER_JOB, word);
            }
        }
        return new InterfaceOwner(Kind.UNKNOWN, null);
    }

    /** @return whether {@code name} has the shape of a job this library starts, under whatever prefix */
    private static boolean startedByThisLibrary(String name) {
        if (WORKER.matcher(name).matches()) {
            return true;
        }
        for (int hyphen = name.indexOf('-'); hyphen > 0; hyphen = name.indexOf('-', hyphen + 1)) {
            if (TrainingJobNames.isStartedUnder(name, name.substring(0, hyphen))) {
                return true;
            }
        }
        return false;
    }
}
