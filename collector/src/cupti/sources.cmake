# CUPTI activity source (STEPLINT_WITH_CUPTI). Paths relative to collector/.
set(STEPLINT_COLLECTOR_CUPTI_SOURCES
  src/cupti/cupti_errors.cpp
  src/cupti/cupti_names.cpp
  src/cupti/cupti_api_filter.cpp
  src/cupti/cupti_records.cpp
  src/cupti/cupti_event_writer.cpp
  src/cupti/cupti_device_info.cpp
  src/cupti/cupti_activity_source.cpp
  src/cupti/cupti_activity_buffers.cpp
)
