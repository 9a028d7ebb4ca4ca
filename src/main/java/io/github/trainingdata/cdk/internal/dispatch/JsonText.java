package io.github.trainingdata.cdk.internal.dispatch;

import java.util.List;
import java.util.Map;
import software.amazon.awssdk.protocols.jsoncore.JsonWriter;

/** Writes what Lambda delivered (maps, lists, strings, numbers, booleans) back as JSON, maps in their order. */
final class JsonText {
    private JsonText() {
    }

    /**
     * @param value a value as Lambda deserialized it
     * @return its JSON text, UTF-8
     */
    static byte[] of(Object value) {
        JsonWriter json = JsonWriter.create();
        write(json, value);
        return json.getBytes();
    }

    private static void write(JsonWriter json, Object value) {
        if (value instanceof Map<?, ?> map) {
            json.writeStartObject();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                json.writeFieldName(String.valueOf(entry.getKey()));
                write(json, entry.getValue());
            }
            json.writeEndObject();
        } else if (value instanceof List<?> list) {
            json.writeStartArray();
            for (Object item : list) {
                write(json, item);
            }
            json.writeEndArray();
        } else if (value instanceof Boolean bool) {
            json.writeValue(bool);
        } else if (value instanceof Number number) {
            json.writeNumber(number.toString());
        } else if (value == null) {
            json.writeNull();
        } else {
            json.writeValue(String.valueOf(value));
        }
    }
}
