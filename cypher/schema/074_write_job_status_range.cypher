// Pending background batches are found by status when a process starts and resumes them.
// mode: schema
CREATE RANGE INDEX write_job_status IF NOT EXISTS FOR (j:WriteJob) ON (j.status)
