package io.github.trainingdata.cdk.launch;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.traits.ListTrait;
import software.amazon.awssdk.core.traits.MapTrait;
import software.amazon.awssdk.protocols.jsoncore.JsonWriter;
import software.amazon.awssdk.services.sagemaker.model.CreateTrainingJobRequest;

/**
 * Generates a CreateTrainingJob request document that sets every member of the SDK model (one element per
 * list, one entry per map), so a test can prove that the converter handles the whole API.
 */
public final class ModelSampleDocument {
    private final JsonWriter writer = JsonWriter.create();
    private final Deque<Class<?>> open = new ArrayDeque<>();
    private int counter;

    private ModelSampleDocument() {
    }

    /**
     * The document, without {@code TrainingJobName}.
     *
     * @return the JSON text
     */
    public static String createTrainingJob() {
        ModelSampleDocument sample = new ModelSampleDocument();
        sample.structure((SdkPojo) CreateTrainingJobRequest.builder(), "TrainingJobName");
        return new String(sample.writer.getBytes(), StandardCharsets.UTF_8);
    }

    private void structure(SdkPojo builder, String skippedMember) {
        open.push(builder.getClass());
        writer.writeStartObject();
        for (SdkField<?> field : builder.sdkFields()) {
            boolean recursive = field.constructor() != null && open.contains(field.constructor().get().getClass());
            if (!field.locationName().equals(skippedMember) && !recursive) {
                writer.writeFieldName(field.locationName());
                value(field);
            }
        }
        writer.writeEndObject();
        open.pop();
    }

    private void value(SdkField<?> field) {
        counter++;
        switch (field.marshallingType().getKnownType()) {
            case STRING -> writer.writeValue("value-" + counter);
            case BOOLEAN -> writer.writeValue(counter % 2 == 0);
            case INTEGER -> writer.writeValue(counter);
            case LONG -> writer.writeValue(10_000_000_000L + counter);
            case SDK_POJO -> structure(field.constructor().get(), null);
            case LIST -> {
                writer.writeStartArray();
                value(field.getRequiredTrait(ListTrait.class).memberFieldInfo());
                writer.writeEndArray();
            }
            case MAP -> {
                writer.writeStartObject();
                writer.writeFieldName("key-" + counter);
                value(field.getRequiredTrait(MapTrait.class).valueFieldInfo());
                writer.writeEndObject();
            }
            default -> throw new IllegalStateException(
                    field.memberName() + " has a type the sample does not cover: " + field.marshallingType());
        }
    }
}
