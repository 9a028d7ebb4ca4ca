package io.github.trainingdata.cdk.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.trainingdata.cdk.Json;
import io.github.trainingdata.cdk.preload.ShellRun;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every limit in the table equals the API model's constraint: botocore's {@code sagemaker/2017-07-24} and
 * {@code fsx/2018-03-01}, read by {@code python3}. Skips when python3 or botocore is missing, unless CI=true.
 */
class ApiModelLimitsTest {
    /**
     * The start of a reader of the SageMaker and FSx models (exit 3 without botocore): {@code models}, loaded per
     * service on first use, {@code out} with botocore's version, and a loop over the queries given as JSON.
     */
    private static final String MODELS = String.join("\n",
            "import json, sys",
            "try:",
            "    import botocore",
            "    from botocore.loaders import Loader",
            "except ImportError:",
            "    sys.exit(3)",
            "versions = {'sagemaker': '2017-07-24', 'fsx': '2018-03-01'}",
            "loader, models, out = Loader(), {}, {'botocore': botocore.__version__}",
            "for query in json.loads(sys.argv[1]):");

    /** Resolves each member path to its shape and prints the shape's min, max and pattern as JSON. */
    private static final String MODEL_READER = String.join("\n", MODELS,
            "    service, path = query.split(':')",
            "    if service not in models:",
            "        models[service] = loader.load_service_model(service, 'service-2', versions[service])['shapes']",
            "    shapes, parts = models[service], path.split('.')",
            "    shape = parts[0]",
            "    for part in parts[1:]:",
            "        s = shapes[shape]",
            "        ref = s[part] if s['type'] in ('list', 'map') and part in ('member', 'key', 'value') else s['members'][part]",
            "        shape = ref['shape']",
            "    s = shapes[shape]",
            "    out[query] = {'shape': shape, 'min': s.get('min'), 'max': s.get('max'), 'pattern': s.get('pattern')}",
            "print(json.dumps(out))");

    /**
     * Prints, as JSON, the documentation of each queried member (tags stripped, white space collapsed) and the enum
     * of each queried shape: what the model states in words rather than as bounds.
     */
    private static final String DOCUMENTATION_READER = String.join("\n",
            "import json, re, sys",
            "try:",
            "    import botocore",
            "    from botocore.loaders import Loader",
            "except ImportError:",
            "    sys.exit(3)",
            "shapes = Loader().load_service_model('fsx', 'service-2', '2018-03-01')['shapes']",
            "out = {'botocore': botocore.__version__}",
            "for query in json.loads(sys.argv[1]):",
            "    parts = query.split('.')",
            "    if len(parts) == 1:",
            "        out[query] = shapes[query].get('enum')",
            "    else:",
            "        text = shapes[parts[0]]['members'][parts[1]].get('documentation', '')",
            "        out[query] = re.sub(r'\\s+', ' ', re.sub(r'<[^>]+>', '', text))",
            "print(json.dumps(out))");

    /** Prints, as JSON, the enumeration of each queried {@code service:Shape}. */
    private static final String ENUM_READER = String.join("\n", MODELS,
            "    service, shape = query.split(':')",
            "    if service not in models:",
            "        models[service] = loader.load_service_model(service, 'service-2', versions[service])['shapes']",
            "    out[query] = models[service][shape].get('enum')",
            "print(json.dumps(out))");

    @TempDir
    Path scratch;

    private static Map<String, ApiLimit> table() throws IllegalAccessException {
        Map<String, ApiLimit> limits = new LinkedHashMap<>();
        Map<Class<?>, String> services = new LinkedHashMap<>();
        services.put(SageMakerLimits.class, "sagemaker");
        services.put(FsxLimits.class, "fsx");
        for (var entry : services.entrySet()) {
            for (Field field : entry.getKey().getFields()) {
                if (Modifier.isStatic(field.getModifiers()) && field.getType() == ApiLimit.class) {
                    ApiLimit limit = (ApiLimit) field.get(null);
                    limits.put(entry.getKey().getSimpleName() + "." + field.getName() + " (" + entry.getValue() + ":"
                            + limit.getMember() + ")", limit);
                }
            }
        }
        return limits;
    }

    private static String query(String name) {
        return name.substring(name.indexOf('(') + 1, name.length() - 1);
    }

    private Map<String, Object> readModel(List<String> queries) throws Exception {
        return runReader(MODEL_READER, queries);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> runReader(String reader, List<String> queries) throws Exception {
        String json = "[" + String.join(",", queries.stream().map(q -> "\"" + q + "\"").toList()) + "]";
        boolean ci = "true".equals(System.getenv("CI"));
        ShellRun run;
        try {
            run = ShellRun.run(List.of("python3", "-c", reader, json), System.getenv(), scratch);
        } catch (IOException e) {
            return unavailable(ci, "python3 is not installed: " + e.getMessage());
        }
        if (run.exitCode() == 3) {
            return unavailable(ci, "python3 has no botocore");
        }
        assertEquals(0, run.exitCode(), run.stderr());
        return (Map<String, Object>) Json.tree(run.stdout());
    }

    private static Map<String, Object> unavailable(boolean ci, String why) {
        if (ci) {
            fail(why + " (CI=true: the model check must run)");
        }
        Assumptions.abort(why + ": the limits are not compared with the API model");
        return null;
    }

    private static Long number(Object value) {
        return value == null ? null : ((BigDecimal) value).longValueExact();
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyLimitEqualsTheApiModel() throws Exception {
        Map<String, ApiLimit> table = table();
        assertTrue(table.size() > 40, "the table lists " + table.size() + " limits");
        Map<String, Object> model = readModel(table.keySet().stream().map(ApiModelLimitsTest::query).toList());
        List<String> differences = new ArrayList<>();
        table.forEach((name, limit) -> {
            Map<String, Object> shape = (Map<String, Object>) model.get(query(name));
            ApiLimit stated = limit.getModelLimit();
            List<Object> ours = Arrays.asList(stated.getMin(), stated.getMax(), stated.getPattern());
            List<Object> theirs = Arrays.asList(number(shape.get("min")), number(shape.get("max")),
                    shape.get("pattern"));
            if (!ours.equals(theirs)) {
                differences.add(name + " [shape " + shape.get("shape") + "]: ours " + ours + ", model " + theirs);
            }
        });
        assertEquals(List.of(), differences, "botocore " + model.get("botocore"));
    }

    @Test
    void narrowedLimitsStayWithinTheModel() throws Exception {
        for (var entry : table().entrySet()) {
            ApiLimit limit = entry.getValue();
            ApiLimit stated = limit.getModelLimit();
            if (stated.getMin() != null) {
                assertFalse(limit.getMin() < stated.getMin(), entry.getKey());
            }
            if (stated.getMax() != null) {
                assertFalse(limit.getMax() > stated.getMax(), entry.getKey());
            }
            assertEquals(stated.getPattern(), limit.getPattern(), entry.getKey());
        }
    }

    @Test
    void theValuesTheModelStatesInWordsAreOurs() throws Exception {
        String capacity = "CreateFileSystemRequest.StorageCapacity";
        String throughput = "CreateFileSystemLustreConfiguration.PerUnitStorageThroughput";
        String iops = "CreateFileSystemLustreMetadataConfiguration.Iops";
        String modes = "MetadataConfigurationMode";
        Map<String, Object> model = runReader(DOCUMENTATION_READER, List.of(capacity, throughput, iops, modes));
        String steps = FsxLimits.SSD_MIN_CAPACITY_GIB + " GiB, " + FsxLimits.SSD_CAPACITY_STEP_GIB
                + " GiB, and increments of " + FsxLimits.SSD_CAPACITY_STEP_GIB + " GiB";
        assertTrue(((String) model.get(capacity)).contains("For SCRATCH_2, PERSISTENT_2, and PERSISTENT_1 deployment "
                + "types using SSD storage type, the valid values are " + steps), (String) model.get(capacity));
        String tiers = String.join(", ", FsxLimits.PERSISTENT_2_THROUGHPUTS.stream().map(String::valueOf).toList());
        assertTrue(((String) model.get(throughput)).contains("For PERSISTENT_2 SSD storage: " + tiers + " MB/s/TiB"),
                (String) model.get(throughput));
        String small = String.join(", ", FsxLimits.SSD_METADATA_IOPS_BELOW_STEP.stream().map(String::valueOf).toList());
        assertTrue(((String) model.get(iops)).contains("For SSD file systems, valid values are " + small + ", "
                + FsxLimits.METADATA_IOPS_STEP + ", and multiples of " + FsxLimits.METADATA_IOPS_STEP
                + " up to a maximum of " + FsxLimits.METADATA_IOPS.getMax()), (String) model.get(iops));
        assertEquals(FsxLimits.METADATA_CONFIGURATION_MODES, model.get(modes));
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyValueTheLibraryRendersIntoAnEnumeratedMemberIsInTheModelsEnumeration() throws Exception {
        Map<String, List<String>> ours = new LinkedHashMap<>();
        ours.put("sagemaker:TrainingInstanceType", SageMakerLimits.TRAINING_INSTANCE_TYPES);
        ours.put("sagemaker:TrainingInputMode", apiValues(io.github.trainingdata.cdk.training.ChannelInputMode.values()));
        ours.put("sagemaker:S3DataType", apiValues(io.github.trainingdata.cdk.training.S3ChannelDataType.values()));
        ours.put("sagemaker:S3DataDistribution",
                apiValues(io.github.trainingdata.cdk.training.S3ChannelDistribution.values()));
        ours.put("sagemaker:CompressionType", apiValues(io.github.trainingdata.cdk.training.Compression.values()));
        ours.put("sagemaker:RecordWrapper", apiValues(io.github.trainingdata.cdk.training.ChannelRecordWrapper.values()));
        ours.put("sagemaker:FileSystemAccessMode",
                apiValues(io.github.trainingdata.cdk.training.ChannelAccessMode.values()));
        ours.put("fsx:LustreDeploymentType", apiValues(io.github.trainingdata.cdk.storage.LustreDeploymentType.values()));
        ours.put("fsx:MetadataConfigurationMode",
                apiValues(io.github.trainingdata.cdk.storage.LustreMetadataMode.values()));
        ours.put("fsx:EventType", Arrays.stream(io.github.trainingdata.cdk.storage.DataRepositoryEvent.values())
                .map(Enum::name).toList());
        Map<String, Object> model = runReader(ENUM_READER, List.copyOf(ours.keySet()));
        List<String> outside = new ArrayList<>();
        ours.forEach((shape, values) -> values.stream().filter(v -> !((List<Object>) model.get(shape)).contains(v))
                .forEach(v -> outside.add(shape + ": " + v)));
        assertEquals(List.of(), outside, "botocore " + model.get("botocore"));
        assertEquals(model.get("sagemaker:TrainingInstanceType"), SageMakerLimits.TRAINING_INSTANCE_TYPES,
                "the instance types a job, a capacity step and a preload worker may name are the model's, in its order");
    }

    /** The {@code apiValue()} of each constant of one of the library's enums. */
    private static List<String> apiValues(Enum<?>[] constants) throws ReflectiveOperationException {
        List<String> values = new ArrayList<>();
        for (Enum<?> constant : constants) {
            values.add((String) constant.getClass().getMethod("apiValue").invoke(constant));
        }
        return values;
    }
}
