"""chartprobe training: data selection and TRL + PEFT LoRA fine-tuning."""
